import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePorts } from './ports.js';

describe('freePorts', () => {
  it('gives distinct ports a server can listen on, below the range outgoing connections take theirs from', async () => {
    const ports = await freePorts(20);
    expect(new Set(ports).size).toBe(20);
    let ephemeral = 32768;
    try {
      ephemeral = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    } catch {
      // Not Linux: the usual start.
    }
    for (const port of ports) expect(port).toBeLessThan(ephemeral);
    const servers = await Promise.all(
      ports.map(
        (port) =>
          new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
            const server = createServer();
            server.once('error', reject);
            server.listen(port, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('never hands the same port out twice, across separate calls whose servers have not bound yet', async () => {
    const given: number[] = [];
    for (let call = 0; call < 400; call += 1) given.push(...(await freePorts(2)));
    expect(new Set(given).size).toBe(given.length);
  });
});

import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, type PortPool } from './ports.js';

function withPool<T>(lowest: number, size: number, use: (pool: PortPool) => Promise<T>): Promise<T> {
  const claims = mkdtempSync(join(tmpdir(), 'port-claims-'));
  return use({ lowest, highest: lowest + size - 1, claims }).finally(() => rmSync(claims, { recursive: true, force: true }));
}

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

  it('never hands out a port another live process has claimed, even one whose server has not bound yet', async () => {
    await withPool(23_100, 40, async (pool) => {
      // Another process (this one's parent, alive for the whole test) claimed all but ten of the pool.
      for (let port = pool.lowest; port < pool.lowest + 30; port += 1) {
        writeFileSync(join(pool.claims, String(port)), String(process.ppid));
      }
      // (A port of the ten may be some other test's server right now: five are asked for.)
      const ports = await freePorts(5, pool);
      for (const port of ports) expect(port).toBeGreaterThanOrEqual(pool.lowest + 30);
      // Each is now claimed by this process, for the next caller on the machine.
      for (const port of ports) expect(readFileSync(join(pool.claims, String(port)), 'utf8')).toBe(String(process.pid));
      for (let port = pool.lowest + 30; port <= pool.highest; port += 1) {
        if (!ports.includes(port)) writeFileSync(join(pool.claims, String(port)), String(process.ppid));
      }
      await expect(freePorts(1, pool)).rejects.toThrow('no 1 free ports between 23100 and 23139');
    });
  });

  it("takes over a dead process's claim", async () => {
    await withPool(23_200, 5, async (pool) => {
      const { pid } = spawnSync(process.execPath, ['-e', '0']);
      for (let port = pool.lowest; port <= pool.highest; port += 1) {
        writeFileSync(join(pool.claims, String(port)), String(pid));
      }
      const ports = await freePorts(3, pool);
      expect(new Set(ports).size).toBe(3);
      for (const port of ports) expect(readFileSync(join(pool.claims, String(port)), 'utf8')).toBe(String(process.pid));
    });
  });
});

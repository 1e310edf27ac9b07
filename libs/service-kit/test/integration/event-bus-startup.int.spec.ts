import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, ManagedProcess } from '@clipit/testing';
import { afterEach, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectEventBus, isJetStreamNotReady } from '../../src/process/startup.js';

// A service booting while its NATS answers but JetStream does not yet (a server just started, one recovering a
// large store): the boot asks again instead of failing, and still fails on an answer that would not change.

const natsServer = execFileSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).trim();

function nats(port: number, monitor: number, jetStreamDir?: string): ManagedProcess {
  return new ManagedProcess({
    name: jetStreamDir ? 'nats-js' : 'nats-core',
    command: natsServer,
    args: ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), ...(jetStreamDir ? ['-js', '-sd', jetStreamDir] : [])],
    ready: async () => (await fetch(`http://127.0.0.1:${monitor}/healthz`, { signal: AbortSignal.timeout(1000) })).ok,
  });
}

describe('connectEventBus while JetStream is not answering yet', () => {
  const started: ManagedProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const p of started.splice(0)) await p.stop().catch(() => undefined);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps asking, and the boot completes once JetStream answers', async () => {
    const [port, monitor] = (await freePorts(2)) as [number, number];
    const core = nats(port, monitor);
    started.push(core);
    await core.start();
    const names = { stream: `BOOT_${Date.now()}`, subjectPrefix: `boot${Date.now()}` };
    const booting = connectEventBus(`nats://127.0.0.1:${port}`, 'boot-test', names, { readyWithinMs: 30_000 });
    let settled = false;
    void booting.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(settled).toBe(false); // still asking, not failed

    await core.stop();
    const dir = mkdtempSync(join(tmpdir(), 'clipit-boot-js-'));
    dirs.push(dir);
    const withJetStream = nats(port, monitor, dir);
    started.push(withJetStream);
    await withJetStream.start();

    const nc = await booting;
    try {
      const jsm = await jetstreamManager(nc);
      expect((await jsm.streams.info(names.stream)).config.subjects).toEqual([`${names.subjectPrefix}.>`]);
    } finally {
      await nc.close();
    }
  }, 45_000);

  it('gives up when JetStream never answers within the time it was given', async () => {
    const [port, monitor] = (await freePorts(2)) as [number, number];
    const core = nats(port, monitor);
    started.push(core);
    await core.start();
    const t0 = Date.now();
    const err = await connectEventBus(
      `nats://127.0.0.1:${port}`,
      'boot-test',
      { stream: 'NEVER', subjectPrefix: 'never' },
      { readyWithinMs: 3000 },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    expect(isJetStreamNotReady(err)).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2000); // asked more than once
  }, 30_000);

  it('does not retry an answer that would not change', () => {
    expect(isJetStreamNotReady(new Error('stream name already in use with a different configuration'))).toBe(false);
    expect(isJetStreamNotReady(null)).toBe(false);
  });
});

// `npm start` keeps the platform up when one service dies (deploy/launcher/supervisor.mjs): a service that
// exits unexpectedly is restarted with a growing delay and reported ready again; one that keeps crashing
// makes the launcher give up naming it, its exit and its last output; a stop on request restarts nothing.
// The services here are small real processes (node -e) that serve /health/ready and are SIGKILLed for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { freePorts } from '../../src/ports.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Entry {
  name: string;
  child: ChildProcess;
  exited: boolean;
  attempt: number;
}
interface SupervisorLike {
  entries: Entry[];
  start(name: string, spawn: () => ChildProcess, readyUrl: string): Entry;
  supervise(): void;
  waitReady(entry: Entry): Promise<void>;
  stop(): Promise<void>;
  kill(): void;
}
interface SupervisorModule {
  Supervisor: new (opts: Record<string, unknown>) => SupervisorLike;
  backoffDelay(attempt: number, initialDelayMs?: number, maxDelayMs?: number): number;
}

let mod: SupervisorModule;
beforeAll(async () => {
  // The launcher is plain JavaScript outside this project; load it at run time.
  mod = (await import(pathToFileURL(join(ROOT, 'deploy/launcher/supervisor.mjs')).href)) as SupervisorModule;
});

// A service in miniature: says it started, serves 200 on /health/ready. When the file named by CRASH_MARK
// exists it crashes at start (exit code 3, after a line of output); otherwise it creates it if asked to.
const SERVICE = `
const fs = require('node:fs');
const mark = process.env.CRASH_MARK;
if (mark && fs.existsSync(mark)) { console.error('cannot open the database: it is on fire'); process.exit(3); }
if (mark && process.env.CRASH_NEXT_TIME === '1') fs.writeFileSync(mark, '');
require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => { console.log('stopping on SIGTERM'); process.exit(0); });
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('the launcher supervisor (deploy/launcher/supervisor.mjs)', () => {
  let supervisor: SupervisorLike | undefined;
  let dir: string;
  const lines: string[] = [];
  const gaveUp: string[] = [];

  function make(overrides: Record<string, unknown> = {}): SupervisorLike {
    lines.length = 0;
    gaveUp.length = 0;
    supervisor = new mod.Supervisor({
      log: (msg: string) => lines.push(`log: ${msg}`),
      warn: (msg: string) => lines.push(`warn: ${msg}`),
      onLine: (name: string, line: string) => lines.push(`${name}> ${line}`),
      onGiveUp: (reason: string) => gaveUp.push(reason),
      initialDelayMs: 100,
      maxDelayMs: 400,
      stableMs: 60_000,
      crashLimit: 5,
      crashWindowMs: 60_000,
      readyTimeoutMs: 10_000,
      stopGraceMs: 2000,
      signalGraceMs: 20,
      ...overrides,
    });
    return supervisor;
  }

  async function startService(sup: SupervisorLike, name: string, env: Record<string, string> = {}): Promise<Entry> {
    const [port] = await freePorts(1);
    const entry = sup.start(
      name,
      () =>
        spawn(process.execPath, ['-e', SERVICE], {
          env: { ...process.env, PORT: String(port), ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      `http://127.0.0.1:${port}/health/ready`,
    );
    await sup.waitReady(entry);
    return entry;
  }

  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('doubles the restart delay up to its cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => mod.backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('restarts a SIGKILLed service, says so, and reports it ready again; the delay grows with each crash in a row', async () => {
    const sup = make();
    const api = await startService(sup, 'api');
    const other = await startService(sup, 'other');
    sup.supervise();

    const first = api.child;
    first.kill('SIGKILL');
    await until('ready again (1)', () => lines.some((l) => l.includes('api is ready again (attempt 1')));
    expect(api.child).not.toBe(first);
    expect(lines).toContain('warn: api exited unexpectedly (signal SIGKILL): restarting it in 0.1 s (attempt 1)');
    expect(lines.some((l) => l.startsWith('log: restarting api (attempt 1'))).toBe(true);

    api.child.kill('SIGKILL');
    await until('ready again (2)', () => lines.some((l) => l.includes('api is ready again (attempt 2')));
    expect(lines).toContain('warn: api exited unexpectedly (signal SIGKILL): restarting it in 0.2 s (attempt 2)');

    // The others were never touched, and nobody gave up.
    expect(other.exited).toBe(false);
    expect(lines.some((l) => l.includes('other exited'))).toBe(false);
    expect(gaveUp).toEqual([]);
  });

  it('starts the backoff over once a service has stayed up long enough', async () => {
    const sup = make({ stableMs: 500 });
    const api = await startService(sup, 'api');
    sup.supervise();
    api.child.kill('SIGKILL');
    await until('ready again', () => lines.some((l) => l.includes('api is ready again (attempt 1')));
    await sleep(600);
    api.child.kill('SIGKILL');
    await until('second restart', () => lines.filter((l) => l.includes('api is ready again (attempt 1')).length === 2);
    expect(lines.filter((l) => l === 'warn: api exited unexpectedly (signal SIGKILL): restarting it in 0.1 s (attempt 1)')).toHaveLength(2);
  });

  it('gives up on a service that keeps crashing, naming it, how it exited and its last output', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clipit-supervisor-'));
    const mark = join(dir, 'crash');
    const sup = make({ crashLimit: 3 });
    const api = await startService(sup, 'media-worker', { CRASH_MARK: mark, CRASH_NEXT_TIME: '1' });
    sup.supervise();
    expect(existsSync(mark)).toBe(true);

    api.child.kill('SIGKILL'); // from now on it crashes at start
    await until('giving up', () => gaveUp.length > 0);
    expect(gaveUp).toHaveLength(1);
    const [reason] = gaveUp;
    expect(reason).toContain('media-worker keeps crashing (3 times within 60 s, the last with exit code 3): giving up');
    expect(reason).toContain('cannot open the database: it is on fire');
    expect(lines).toContain('warn: media-worker exited unexpectedly (exit code 3): restarting it in 0.2 s (attempt 2)');
    // It is not restarted after giving up.
    await sleep(600);
    expect(lines.filter((l) => l.startsWith('log: restarting media-worker'))).toHaveLength(2);
  });

  it('stops every service on request without restarting any', async () => {
    const sup = make();
    const a = await startService(sup, 'a');
    const b = await startService(sup, 'b');
    sup.supervise();
    await sup.stop();
    expect(a.exited && b.exited).toBe(true);
    expect(lines).toContain('log: stopping a, b');
    expect(lines).toContain('a> stopping on SIGTERM');
    await sleep(300);
    expect(lines.filter((l) => l.includes('exited unexpectedly') || l.includes('restarting'))).toEqual([]);
    expect(sup.entries.every((e) => e.exited)).toBe(true);
  });
});

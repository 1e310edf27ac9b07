import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startOtlpReceiver, waitFor } from '@clipit/testing';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/run-service-process.mjs', import.meta.url));

function run(mode: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, fixture], {
    cwd: root,
    env: { ...process.env, MODE: mode, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out.stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out, exited };
}

describe('runService: the process entry every service uses', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/service-kit`], {
      stdio: 'inherit',
    });
  });

  it('exits 78 on a bad configuration, naming the variable and its value', async () => {
    const p = run('bad-config');
    expect(await p.exited).toBe(78);
    expect(p.out.stderr).toContain('FIXTURE_PORT="seventy" is invalid');
    expect(p.out.stdout).not.toContain('READY');
  });

  it('exits 1 when start-up fails otherwise, saying why', async () => {
    const p = run('crash');
    expect(await p.exited).toBe(1);
    expect(p.out.stderr).toContain('fixture failed to start');
    expect(p.out.stderr).toContain('database refused the connection');
  });

  it('closes the service on SIGTERM and exits 0', async () => {
    const p = run('normal');
    await waitFor(() => (p.out.stdout.includes('READY') ? true : undefined), 10000, 'ready');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.out.stdout).toContain('CLOSED');
    expect(p.out.stdout).toContain('"signal":"SIGTERM"');
  });

  it('sends the spans of its last work before exiting, with tracing on (ADR 0054)', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const flagged = receiver.flagTrace();
      // A batch that would wait a minute: only the flush at shutdown can send the span in time.
      const p = run('traced', { ...receiver.env(60_000), OTEL_SERVICE_NAME: 'fixture', FIXTURE_TRACEPARENT: flagged.traceparent }, [
        '--import',
        '@clipit/telemetry/register',
      ]);
      await waitFor(() => (p.out.stdout.includes('READY') ? true : undefined), 10000, 'ready');
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(receiver.spans(flagged.traceId).map((s) => [s.name, s.service, s.parentSpanId])).toEqual([
        ['last work', 'fixture', flagged.parentSpanId],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('exits 1 when closing outlasts the grace period', async () => {
    const p = run('slow-close', { GRACE_MS: '300' });
    await waitFor(() => (p.out.stdout.includes('READY') ? true : undefined), 10000, 'ready');
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(1);
    expect(p.out.stdout).toContain('shutdown took too long');
    expect(p.out.stdout).not.toContain('CLOSED');
  });
});

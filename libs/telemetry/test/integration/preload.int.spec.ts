// The preload in real processes (ADR 0054): with no collector it loads nothing of the SDK; with one, a request's
// spans across HTTP, gRPC, PostgreSQL and Redis, in two processes, reach the collector as one trace, parent by
// parent; and a request the edge does not keep costs no span and passes no trace context to the next process.
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeSpans, freePorts, startOtlpReceiver, waitFor, type OtlpReceiver, type ReceivedSpan } from '@clipit/testing';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

interface Resolution {
  specifier: string;
  parent: string | null;
  url: string;
}

let receiver: OtlpReceiver;
let recordDir: string;

beforeAll(async () => {
  // The children load the preload as a service does, from the library's build.
  execFileSync(process.execPath, [`${root}node_modules/typescript-native/bin/tsc`, '-b', `${root}libs/telemetry`], { stdio: 'inherit' });
  receiver = await startOtlpReceiver();
  recordDir = mkdtempSync(join(tmpdir(), 'clipit-preload-'));
});

const children = new Set<ReturnType<typeof spawn>>();

afterAll(async () => {
  // Those a failed test left running.
  for (const child of children) child.kill('SIGKILL');
  await receiver?.close();
  if (recordDir) rmSync(recordDir, { recursive: true, force: true });
});

/** Starts the fixture with the preload, a resolution recorder registered before it, and `env`. */
function startChild(name: string, env: Record<string, string>) {
  const recordFile = join(recordDir, `${name}.json`);
  const child = spawn(
    process.execPath,
    ['--import', fixture('record-resolutions.mjs'), '--import', '@clipit/telemetry/register', fixture('chain-process.mjs')],
    {
      cwd: root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? tmpdir(),
        RECORD_FILE: recordFile,
        DATABASE_URL: `${process.env['TEST_POSTGRES_URL']}/postgres`,
        REDIS_URL: process.env['TEST_REDIS_URL'] ?? '',
        REDIS_KEY: `clipit:${process.env['CLIPIT_TEST_RUN_ID']}_telemetry:chain`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out.stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = () =>
    waitFor(() => /READY (\d+)/.exec(out.stdout)?.[1], 15_000, `${name} ready`)
      .catch((err: Error) => Promise.reject(new Error(`${err.message} (stderr: ${out.stderr})`)))
      .then((port) => `http://127.0.0.1:${port}`);
  const stop = async () => {
    child.kill('SIGTERM');
    const code = await exited;
    return { code, resolved: JSON.parse(readFileSync(recordFile, 'utf8')) as Resolution[] };
  };
  return { child, out, exited, ready, stop };
}

const SDK = /\/node_modules\/(import-in-the-middle|@opentelemetry\/(?!api\/))/;
/** A span's scope, short: `http` for the edge's server spans, `grpc`, `pg`, … for the instrumentations'. */
const short = (scope: string) =>
  scope === '@clipit/telemetry/http-server' ? 'http' : scope.replace('@opentelemetry/instrumentation-', '');
const preloadFile = (file: string) => (r: Resolution) => r.parent?.endsWith(`/libs/telemetry/dist/${file}`) === true;

describe('@clipit/telemetry/register', () => {
  it('loads nothing but itself and node:process when no collector is configured, and the process works', async () => {
    const p = startChild('off', {});
    const url = await p.ready();
    const res = await fetch(`${url}/items/1`, { headers: { traceparent: receiver.flagTrace().traceparent } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '1', echoed: 'secret-1', received: null, ownerSpan: false, traceId: null, sampled: null });
    const { code, resolved } = await p.stop();
    expect({ code, closed: p.out.stdout.includes('CLOSED') }).toEqual({ code: 0, closed: true });

    expect(resolved.filter(preloadFile('register.js')).map((r) => r.specifier)).toEqual(['node:process', './config.js']);
    expect(resolved.filter(preloadFile('config.js'))).toEqual([]);
    // The app's own `import '@clipit/telemetry'` brings the API (a no-op), and nothing else of OpenTelemetry.
    expect(resolved.filter((r) => SDK.test(r.url)).map((r) => r.url)).toEqual([]);
    expect(resolved.some((r) => r.url.includes('/node_modules/@opentelemetry/api/'))).toBe(true);
  });

  it('refuses a bad value with the variable named and exit code 78, before the app starts', async () => {
    const p = startChild('refused', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'sometimes' });
    expect(await p.exited).toBe(78);
    expect(p.out.stderr).toContain('OTEL_TRACES_SAMPLER="sometimes" is invalid');
    expect(p.out.stdout).not.toContain('READY');
  });

  /**
   * An edge (HTTP, calling gRPC) and the owner it calls, in two processes with the same tracing settings, started
   * together (the edge's gRPC channel connects at its first call).
   */
  async function startPair(name: string, env: Record<string, string>) {
    const [grpcPort] = await freePorts(1);
    const owner = startChild(`${name}-owner`, {
      ...env,
      CHAIN_ROLE: 'owner',
      OTEL_SERVICE_NAME: `${name}-owner`,
      GRPC_PORT: String(grpcPort),
    });
    const edge = startChild(`${name}-edge`, {
      ...env,
      CHAIN_ROLE: 'edge',
      OTEL_SERVICE_NAME: `${name}-edge`,
      GRPC_TARGET: `127.0.0.1:${grpcPort}`,
    });
    const [url] = await Promise.all([edge.ready(), owner.ready()]);
    type Reply = { received: string | null; ownerSpan: boolean; traceId: string | null; sampled: boolean | null };
    const get = async (path: string, traceparent?: string) => {
      const res = await fetch(`${url}${path}`, { headers: traceparent === undefined ? {} : { traceparent } });
      expect(res.status).toBe(200);
      return (await res.json()) as Reply;
    };
    /**
     * POST /items, its body sent 50 ms after its head: the edge reads it, and calls the owner, from events of the
     * connection that come long after the request began.
     */
    const post = (id: string, traceparent?: string) =>
      new Promise<Reply>((resolve, reject) => {
        const body = JSON.stringify({ id });
        const headers = {
          'content-type': 'application/json',
          'content-length': String(body.length),
          ...(traceparent ? { traceparent } : {}),
        };
        const req = request(`${url}/items`, { method: 'POST', headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () =>
            res.statusCode === 200 ? resolve(JSON.parse(text) as Reply) : reject(new Error(`${res.statusCode}: ${text}`)),
          );
        });
        req.on('error', reject);
        req.flushHeaders();
        setTimeout(() => req.end(body), 50);
      });
    /** Stops both (each flushes its spans); answers what each loaded. */
    const stop = async () => {
      const [e, o] = await Promise.all([edge.stop(), owner.stop()]);
      expect([e.code, o.code]).toEqual([0, 0]);
      return [...e.resolved, ...o.resolved];
    };
    return { get, post, stop, services: [`${name}-edge`, `${name}-owner`] };
  }

  // The three pairs start at once, while the tests above run: process starts are most of this file's time.
  const ratioEnv = (ratio: string) => ({
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
    TRACE_REMOTE_PARENT: 'ratio',
  });
  let pairs: Promise<Record<'follow' | 'zero' | 'half', Awaited<ReturnType<typeof startPair>>>>;
  beforeAll(() => {
    const started = Promise.all([
      startPair('follow', { ...receiver.env() }),
      startPair('zero', { ...receiver.env(), ...ratioEnv('0') }),
      startPair('half', { ...receiver.env(), ...ratioEnv('0.5') }),
    ]).then(([follow, zero, half]) => ({ follow, zero, half }));
    // Awaited by each test, which then reports a failed start as its own failure.
    started.catch(() => undefined);
    pairs = started;
  });

  const stray = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}`;
  const fromServices = (services: string[]) => (s: ReceivedSpan) => services.includes(s.service ?? '');
  const sdkLoaded = (resolved: Resolution[]) => resolved.some((r) => r.url.includes('/node_modules/@opentelemetry/sdk-trace/'));

  it("with the tests' settings, sends a flagged HTTP → gRPC → pg and Redis chain from two processes as one trace; nothing else, and no context downstream", async () => {
    const pair = (await pairs).follow;
    const flagged = receiver.flagTrace();
    const reply = await pair.get('/items/42', flagged.traceparent);
    expect(reply.received).toMatch(new RegExp(`^00-${flagged.traceId}-[0-9a-f]{16}-01$`));
    // A probe flagged by its caller, a request with no trace context, one its caller did not sample, one with a
    // header no propagator reads: none is traced, and the owner they call is sent no trace context at all, and
    // works with no span.
    const untraced = await Promise.all([
      pair.get('/health/ready', `${stray()}-01`),
      pair.get('/items/7'),
      pair.get('/items/8', `${stray()}-00`),
      pair.get('/items/9', 'not-a-traceparent'),
      // Called from the body's events, which fire long after the request began: untraced all the same.
      pair.post('10'),
    ]);
    expect(untraced.map((r) => [r.received, r.traceId, r.ownerSpan])).toEqual([
      [null, null, false],
      [null, null, false],
      [null, null, false],
      [null, null, false],
      [null, null, false],
    ]);
    expect(reply.ownerSpan).toBe(true);
    const flaggedPost = receiver.flagTrace();
    expect((await pair.post('11', flaggedPost.traceparent)).received).toMatch(new RegExp(`^00-${flaggedPost.traceId}-[0-9a-f]{16}-01$`));

    await receiver.waitForTrace(flagged.traceId, (spans) => spans.length >= 5);
    const posted = await receiver.waitForTrace(flaggedPost.traceId, (spans) => spans.length >= 5);
    expect(posted.map((s) => `${s.service} ${short(s.scope)} ${s.kind}`).sort()).toEqual([
      'follow-edge grpc 3',
      'follow-edge http 2',
      'follow-owner grpc 2',
      'follow-owner ioredis 3',
      'follow-owner pg 3',
    ]);
    const resolved = await pair.stop();
    // What shutdown flushed is in too; then the trace is whole, and alone.
    const spans = receiver.spans(flagged.traceId);
    receiver.expectOnlyFlaggedTraces();

    const one = (scope: string, kind: number): ReceivedSpan => {
      const found = spans.filter((s) => short(s.scope) === scope && s.kind === kind);
      if (found.length !== 1) throw new Error(`expected one ${scope} span of kind ${kind}, got ${found.length}:\n${describeSpans(spans)}`);
      return found[0]!;
    };
    const http = one('http', 2);
    const grpcClient = one('grpc', 3);
    const grpcServer = one('grpc', 2);
    const pg = one('pg', 3);
    const redis = one('ioredis', 3);
    expect(spans).toHaveLength(5);
    expect({ name: http.name, route: http.attributes['http.route'] }).toEqual({ name: 'GET /items/:id', route: '/items/:id' });
    expect([http, grpcClient, grpcServer, pg, redis].map((s) => ({ name: s.name, parent: s.parentSpanId, service: s.service }))).toEqual([
      { name: 'GET /items/:id', parent: flagged.parentSpanId, service: 'follow-edge' },
      { name: 'grpc.fixture.Chain/Lookup', parent: http.spanId, service: 'follow-edge' },
      { name: 'grpc.fixture.Chain/Lookup', parent: grpcClient.spanId, service: 'follow-owner' },
      { name: pg.name, parent: grpcServer.spanId, service: 'follow-owner' },
      { name: redis.name, parent: grpcServer.spanId, service: 'follow-owner' },
    ]);
    // Neither the query's parameter nor the value written reaches a span.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('secret-42');
    expect(Object.values(redis.attributes)).toContain('set 1 key');

    // The recorder sees the SDK load when it is on, so its silence in the first test means something.
    expect(sdkLoaded(resolved)).toBe(true);
    expect(resolved.some((r) => r.url.includes('/node_modules/import-in-the-middle/'))).toBe(true);
  });

  it('at ratio 0, exports nothing from either process, flagged or not, and sends the owner no context', async () => {
    const pair = (await pairs).zero;
    const flagged = receiver.flagTrace();
    const replies = await Promise.all([pair.get('/items/1', flagged.traceparent), pair.get('/items/2'), pair.get('/health/ready')]);
    expect(replies.map((r) => [r.received, r.traceId, r.ownerSpan])).toEqual([
      [null, null, false],
      [null, null, false],
      [null, null, false],
    ]);
    const resolved = await pair.stop();
    expect(sdkLoaded(resolved)).toBe(true);
    expect(receiver.spans(flagged.traceId)).toEqual([]);
    receiver.expectOnlyFlaggedTraces();
  });

  it('at ratio 0.5, records a trace in every process or in none: the edge decides once, the owner agrees on its trace id', async () => {
    const pair = (await pairs).half;
    // Either side of the ratio (the unit test checks them against the SDK's sampler).
    const kept = '00000000000000000000000000000001';
    const dropped = 'ffffffff000000000000000000000000';
    receiver.flag(kept);
    const byCaller = await Promise.all([
      pair.get('/items/1', `00-${kept}-1111111111111111-01`),
      pair.get('/items/2', `00-${dropped}-1111111111111111-01`),
      // Sampled by the ratio, but its caller dropped it.
      pair.get('/items/3', `00-${kept}-2222222222222222-00`),
    ]);
    expect(byCaller.map((r) => [r.traceId, r.received?.slice(0, 35) ?? null])).toEqual([
      [kept, `00-${kept}`],
      [null, null],
      [null, null],
    ]);
    // With no trace context the edge draws; the traces it keeps get ids the owner's ratio samples too.
    const drawn = await Promise.all(Array.from({ length: 24 }, (_, i) => pair.get(`/items/${10 + i}`)));
    const traced = drawn.filter((r) => r.traceId !== null);
    expect(traced.length).toBeGreaterThan(0);
    expect(traced.length).toBeLessThan(drawn.length);
    for (const r of drawn) expect([r.sampled, r.received === null]).toEqual(r.traceId === null ? [null, true] : [true, false]);
    for (const r of traced) receiver.flag(r.traceId!);
    // Probes that call the owner: it starts a root span for them, which it drops (its caller decided).
    await Promise.all(Array.from({ length: 4 }, () => pair.get('/health/ready')));

    await Promise.all([kept, ...traced.map((r) => r.traceId!)].map((id) => receiver.waitForTrace(id, (spans) => spans.length >= 5)));
    await pair.stop();
    for (const id of [kept, ...traced.map((r) => r.traceId!)])
      expect(
        receiver
          .spans(id)
          .map((s) => `${s.service} ${short(s.scope)} ${s.kind}`)
          .sort(),
      ).toEqual(['half-edge grpc 3', 'half-edge http 2', 'half-owner grpc 2', 'half-owner ioredis 3', 'half-owner pg 3']);
    receiver.expectOnlyFlaggedTraces();
    expect(receiver.strays().spans.filter(fromServices(pair.services))).toEqual([]);
  });
});

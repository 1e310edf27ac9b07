// The benchmarks' baseline guard and bare server, proven without running a benchmark (a second or so):
//   node --test scripts/bench/baseline.test.mjs
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  BaselineBroken,
  checkBareAnswer,
  checkHttpBaseline,
  checkHttpMeasured,
  failureText,
  timedProblems,
  wireAnswer,
} from './baseline.mjs';
import { SERVICES } from '../../deploy/launcher/services.mjs';
import { EventEmitter } from 'node:events';
import { answerTimes, measure, rotated } from './measure.mjs';
import { benchProcessEnv, processGroup } from './processes.mjs';
import { bareServerEnv, fetchedSample, SAME_ENCODING, sampleAnswer, startBareServer } from './services.mjs';

/** An autocannon result of a healthy bare server, with `over` on top. */
const run = (over = {}) => ({
  requests: { average: 12_000, total: 120_000 },
  latency: { p50: 7, p99: 20 },
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  mismatches: 0,
  '2xx': 120_000,
  statusCodeStats: { 200: { count: 120_000 } },
  ...over,
});

const refusal = (fn, pattern) =>
  assert.throws(fn, (err) => {
    assert.ok(err instanceof BaselineBroken, `expected a BaselineBroken, got ${err}`);
    assert.match(err.message, /^baseline broken: .*; no ratio printed$/);
    assert.match(err.message, pattern);
    return true;
  });

describe('checkHttpBaseline', () => {
  it('accepts a healthy baseline', () => {
    const result = run();
    assert.equal(checkHttpBaseline('bare', result), result);
  });

  it('refuses any answer not 2xx, naming the codes', () => {
    refusal(
      () => checkHttpBaseline('bare', run({ non2xx: 3, statusCodeStats: { 200: { count: 10 }, 502: { count: 3 } } })),
      /bare: 3 answers not 2xx \(3 × 502\)/,
    );
  });

  it('refuses errors and timeouts', () => {
    refusal(() => checkHttpBaseline('bare', run({ errors: 2 })), /2 errors/);
    refusal(() => checkHttpBaseline('bare', run({ timeouts: 5 })), /5 timeouts/);
  });

  it('refuses a baseline under the req/s floor (the 20 req/s of the misframed bare server)', () => {
    refusal(() => checkHttpBaseline('bare', run({ requests: { average: 20, total: 200 } })), /20 req\/s, under the floor of 1000 req\/s/);
    refusal(() => checkHttpBaseline('bare', run({ '2xx': 0, requests: { average: 0, total: 0 } })), /no 2xx answer at all/);
  });

  it('refuses a p99 over the ceiling', () => {
    refusal(() => checkHttpBaseline('bare', run({ latency: { p50: 900, p99: 6000 } })), /p99 6000 ms, over the ceiling of 1000 ms/);
  });

  it('takes floors of its own', () => {
    assert.ok(
      checkHttpBaseline('first page', run({ requests: { average: 40, total: 400 }, latency: { p50: 200, p99: 900 } }), {
        minRps: 10,
        maxP99Ms: 5000,
      }),
    );
  });
});

describe('the measured side and other baselines', () => {
  it('fails a measured run with answers not 2xx, with no floor', () => {
    assert.throws(
      () => checkHttpMeasured('gateway', run({ non2xx: 1, statusCodeStats: { 500: { count: 1 } } })),
      /measured run broken: gateway: 1 answers not 2xx \(1 × 500\)/,
    );
    assert.ok(checkHttpMeasured('gateway', run({ requests: { average: 5, total: 50 } })));
  });

  it('finds a timed baseline that took no time or made nothing', () => {
    assert.deepEqual(timedProblems(1500), []);
    assert.deepEqual(timedProblems(0), ['took 0 ms']);
    assert.deepEqual(timedProblems(-3), ['took -3 ms']);
    assert.deepEqual(timedProblems(NaN), ['took NaN ms']);
    assert.deepEqual(timedProblems(1500, { produced: false }), ['produced no output']);
  });

  it('prints a refusal as it is, anything else as a failure', () => {
    assert.equal(failureText(new BaselineBroken('bare: 3 errors')), 'baseline broken: bare: 3 errors; no ratio printed');
    assert.match(failureText(new Error('boom')), /^bench failed: Error: boom/);
  });
});

describe('latencies to the microsecond', () => {
  it("reads p50 and p99 from every 2xx answer's own time, past the first buffer", () => {
    const run = new EventEmitter();
    const times = answerTimes(run);
    // 100,000 answers of 0.001 to 100 ms, shuffled, and slower answers that were not 2xx, which do not count.
    const values = Array.from({ length: 100_000 }, (_, i) => (i + 1) / 1000);
    for (let i = values.length - 1; i > 0; i -= 1) {
      const j = (i * 7919) % (i + 1);
      [values[i], values[j]] = [values[j], values[i]];
    }
    for (const ms of values) run.emit('response', {}, 200, 512, ms);
    for (const status of [500, 404, 304]) run.emit('response', {}, status, 0, 5_000);
    assert.deepEqual(times.percentiles(), { p50: 50, p99: 99 });
  });

  it('answers no percentile of a run with no 2xx answer', () => {
    const run = new EventEmitter();
    const times = answerTimes(run);
    run.emit('response', {}, 503, 0, 1.5);
    assert.deepEqual(times.percentiles(), { p50: NaN, p99: NaN });
  });

  it("gives a measured run's p50 and p99 in fractions of a millisecond, within autocannon's whole ones", async () => {
    // Each answer about 1.5 ms late: whole milliseconds read it as 1 or 2.
    const server = createServer((req, res) => {
      req.resume();
      setTimeout(() => res.end('ok'), 1.5);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${server.address().port}/`;
      const whole = await measure('whole ms', { url }, { connections: 2, duration: 1, warmConnections: 1 });
      const fine = await measure('fine', { url }, { connections: 2, duration: 1, warmConnections: 1, fineLatency: true });
      assert.ok(Number.isInteger(whole.latency.p50) && Number.isInteger(whole.latency.p99));
      assert.ok(!Number.isInteger(fine.latency.p50), `p50 ${fine.latency.p50}`);
      assert.ok(fine.latency.p50 >= 1 && fine.latency.p50 <= fine.latency.p99, `p50 ${fine.latency.p50}, p99 ${fine.latency.p99}`);
      assert.ok(fine.latency.p99 < whole.latency.p99 + 50, `p99 ${fine.latency.p99} against ${whole.latency.p99}`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the order of modes from round to round', () => {
  it('starts each round one mode later, every mode once in each place over as many rounds as modes', () => {
    const modes = ['off', '1 %', '100 %'];
    const orders = [0, 1, 2, 3].map((round) => rotated(modes, round));
    assert.deepEqual(orders, [
      ['off', '1 %', '100 %'],
      ['1 %', '100 %', 'off'],
      ['100 %', 'off', '1 %'],
      ['off', '1 %', '100 %'],
    ]);
  });
});

describe('the bare server', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const group = processGroup(root);
  const servers = [];
  after(async () => {
    await group.stop();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  // A gateway stand-in that gzips its JSON when asked to, as the gateway does above 1 KB.
  const json = Buffer.from(
    JSON.stringify({ submissions: Array.from({ length: 40 }, (_, i) => ({ id: `clip-${i}`, name: `Clip number ${i}`, likeCount: i })) }),
  );
  const gzipped = gzipSync(json);
  async function gatewayStandIn() {
    const server = createServer((req, res) => {
      const gzip = /gzip/.test(req.headers['accept-encoding'] ?? '');
      const body = gzip ? gzipped : json;
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(body);
    });
    servers.push(server);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${server.address().port}/`;
  }

  it('repeats a gzip-compressed sample byte for byte, framed by its own length', async () => {
    const url = await gatewayStandIn();
    const sample = await sampleAnswer(url, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(sample.headers['content-encoding'], 'gzip');
    assert.ok(sample.body.equals(gzipped));
    const bare = await startBareServer(group, 'bare (gzip)', sample, { 'accept-encoding': 'gzip' });

    const wire = await wireAnswer(`${bare.url}/`, { 'accept-encoding': 'gzip' });
    assert.equal(Number(wire.headers['content-length']), wire.body.length);
    assert.equal(wire.headers['content-encoding'], 'gzip');
    assert.ok(wire.body.equals(gzipped));
    // And a real client decodes it to the sample.
    const res = await fetch(`${bare.url}/`);
    assert.equal(await res.text(), json.toString());
  });

  it('serves a fetched sample (body already decoded by fetch) as plain bytes of the right length', async () => {
    // The original bug: the headers of the gzip answer fetch saw, sent with the body fetch had decoded.
    const url = await gatewayStandIn();
    const res = await fetch(url);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    const sample = fetchedSample(res, Buffer.from(await res.arrayBuffer()));
    const bare = await startBareServer(group, 'bare (fetched)', sample);

    const wire = await wireAnswer(`${bare.url}/`, SAME_ENCODING);
    assert.equal(wire.headers['content-encoding'], undefined);
    assert.equal(Number(wire.headers['content-length']), wire.body.length);
    assert.equal(wire.body.toString(), json.toString());
    // What the load gets from the gateway for the same request: the same bytes.
    assert.ok((await wireAnswer(url, SAME_ENCODING)).body.equals(wire.body));
  });

  it('refuses a sample whose Content-Encoding does not describe its body', () => {
    const lie = { status: 200, headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' }, body: json };
    assert.throws(
      () => bareServerEnv(1234, lie),
      (err) => err instanceof BaselineBroken && /not what its Content-Encoding gzip says/.test(err.message),
    );
  });

  it('refuses a server whose Content-Length is not the bytes it sends', async () => {
    // The old bare server's answer: a compressed sample's length and encoding, the plain bytes.
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gzipped.length });
      res.end(json);
    });
    servers.push(server);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sample = { status: 200, headers: { 'content-encoding': 'gzip' }, body: gzipped };
    await assert.rejects(checkBareAnswer('bare', `http://127.0.0.1:${server.address().port}/`, sample), (err) => {
      assert.ok(err instanceof BaselineBroken);
      assert.match(err.message, new RegExp(`Content-Length ${gzipped.length} but ${json.length} bytes on the wire`));
      assert.match(err.message, /does not decode/);
      return true;
    });
  });
});

describe("a benchmark's service processes", () => {
  const feed = SERVICES.find((s) => s.name === 'feed');

  it("get the memory settings npm start gives them, an operator's NODE_OPTIONS after them", () => {
    assert.deepEqual(benchProcessEnv(['services/feed/dist/main.js'], { LOG_LEVEL: 'warn' }), { ...feed.runtime, LOG_LEVEL: 'warn' });
    const withOwn = benchProcessEnv(['--cpu-prof', 'services/feed/dist/main.js'], { NODE_OPTIONS: '--max-old-space-size=512' });
    assert.equal(withOwn.NODE_OPTIONS, `${feed.runtime.NODE_OPTIONS} --max-old-space-size=512`);
  });

  it('leave anything that is not a service as it is, and BENCH_SERVICE_RUNTIME=0 leaves the settings out', () => {
    assert.deepEqual(benchProcessEnv(['services/feed/dist/replay-main.js'], { A: '1' }), { A: '1' });
    process.env.BENCH_SERVICE_RUNTIME = '0';
    try {
      assert.deepEqual(benchProcessEnv(['services/feed/dist/main.js'], { A: '1' }), { A: '1' });
    } finally {
      delete process.env.BENCH_SERVICE_RUNTIME;
    }
  });
});

// `npm run bench:webhooks`: issue 37's webhooks, event to receiver (ADR 0053): how long a platform event
// takes to arrive, signed, at its subscriber's server, at p50 and p99, beside the bus hop alone measured on
// the same events in the same run.
//
// `npm run bench:webhooks` first builds developer, the webhook worker and the service kit (tsc -b,
// incremental); this script then starts developer (services/developer/dist/main.js) and one webhook worker
// (services/webhook-worker/dist/main.js) as real processes, with the memory settings `npm start` gives them
// (processes.mjs), on a backend of the run's own (isolation.mjs: developer's database, stream, Redis key
// prefix; removed at the end), both with WEBHOOK_ALLOW_LOOPBACK=true and LOG_LEVEL=warn, everything else at
// its default (worker concurrency 10, dispatch backstop every 1 s), and waits until both are ready.
//
// Through developer's gRPC (CreateEndpoint) BENCH_WEBHOOK_ENDPOINTS (default 20) users each get one endpoint
// subscribed to submission.approved, all on a receiver in this process (node:http on 127.0.0.1, one path per
// endpoint). The receiver checks every request with `new Webhook(secret).verify(body, headers)` of the
// standardwebhooks package (the endpoint's secret as CreateEndpoint told it), that its webhook-id is an event
// of the run owned by that endpoint's user and that its body names the event's submission, answers 200, and
// notes when the body had fully arrived.
//
// The events are `submission.approved` envelopes (the kit's buildEventEnvelope) published straight on
// JetStream at `<subjectPrefix>.submissions.submission.approved.v1`, with the event id as Nats-Msg-Id, as
// submissions' outbox relay publishes them, for the users in turn:
//   0. warm-up: one event per user, delivered before anything is timed (JIT, pools, connections);
//   1. steady: BENCH_WEBHOOK_EVENTS (default 2,000) at BENCH_WEBHOOK_RATE a second (default 100), each sent
//      on its schedule whether or not earlier ones were acknowledged (an open loop: a slow pipeline does not
//      slow the offered load);
//   2. burst: BENCH_WEBHOOK_BURST (default 500) sent at once.
// Each event's latency is its arrival at the receiver minus the publish's acknowledgement (JetStream stored
// it: the moment the owner's relay is done with it). The baseline is the same events' bus hop alone: an
// ordered (ephemeral) JetStream consumer in this process, on its own connection, on the same subject, notes
// when each event reaches it, also from the acknowledgement. Acknowledgement and delivery leave the server
// at about the same time, so the hop can be under a millisecond, or even a little negative when this process
// reads the consumer's socket before the publisher's; the publish's own round trip (sent to acknowledged) is
// printed beside it. Wall time runs from the first publish of a run to the last arrival; the burst's is its
// time to drain. The CPU time developer and the worker used in each run (/proc, processes.mjs cpuMs), this
// process's own, and the machine's load (1-minute average) before and after are printed with them. A third
// table splits each event's time by developer's log (same clock): publish ack → delivery row written (the
// bus and developer's one consumer), row → the worker's attempt started (dispatch, queue, waiting behind the
// endpoint's earlier deliveries; the hand-off, from the previous delivery's arrival to this attempt, apart),
// attempt → arrival (signing and HTTP); and the steady run's p50 latency and consumer lag per 2 s of
// publishing shows whether a queue built up for a while (a busy machine) or grew all along.
//
// A run is over when every one of its events has arrived and developer's log shows every delivery
// delivered (webhook.attempted applied), then 1 s more for a late repeat. The run fails (exit 1) when an
// event arrives twice or never (within BENCH_WEBHOOK_TIMEOUT_SECONDS, default 90, of the run's last publish),
// at the wrong endpoint, or with a signature that does not verify; when an endpoint receives its user's
// events out of publish order (ADR 0053: one at a time per endpoint, in order); when developer wrote other
// than one delivery per event or needed a second attempt; when a process exits; or when the baseline
// consumer did not see every event exactly once (then no table is printed). Markdown tables go to stdout,
// the figures to artifacts/bench/webhooks.json (artifacts/ is git-ignored).
//
//   BENCH_WEBHOOK_ENDPOINTS=20 BENCH_WEBHOOK_EVENTS=2000 BENCH_WEBHOOK_RATE=100 BENCH_WEBHOOK_BURST=500 npm run bench:webhooks
import { developerContract, subjectFor } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, contractClient, jetstream } from '@clipit/service-kit';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { refuseBaseline, runBench, timedProblems } from './baseline.mjs';
import { isolatedBackend, NATS_URL } from './isolation.mjs';
import { log } from './measure.mjs';
import { benchNodeArgs, cpuMs, freePort, processGroup, waitReady } from './processes.mjs';
import { approvedClip } from './seed.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const ENDPOINTS = Number(env('BENCH_WEBHOOK_ENDPOINTS', '20'));
const EVENTS = Number(env('BENCH_WEBHOOK_EVENTS', '2000'));
const RATE = Number(env('BENCH_WEBHOOK_RATE', '100'));
const BURST = Number(env('BENCH_WEBHOOK_BURST', '500'));
const TIMEOUT_MS = Number(env('BENCH_WEBHOOK_TIMEOUT_SECONDS', '90')) * 1000;
const SETTLE_MS = 1000;
const TIMELINE_MS = 2000;
const RESULTS_FILE = join(root, 'artifacts', 'bench', 'webhooks.json');
const TYPE = 'submission.approved';

const group = processGroup(root);
let backend;
let receiver;
let bus;
let publisherNc;
let client;
let db;
let stopping = false;
let abortRun;
const aborted = new Promise((_, reject) => (abortRun = reject));
aborted.catch(() => undefined);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => abortRun(new Error(`interrupted (${signal})`)));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, q) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
/** p50, p95, p99 and max of `values` (ms), and their count. */
function stats(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}
const ms = (v) => (Number.isFinite(v) ? `${v < 10 && v > -10 ? v.toFixed(2) : v.toFixed(0)} ms` : '—');
const s = (v) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : '—');
const n = (v) => v.toLocaleString('en');

/** Every event the run published, by id: whose it is, its place in its user's order, and when each thing happened. */
const events = new Map();
const users = [];

/** Starts one of the two services; a process that exits before the end fails the run. */
async function startService(label, args, vars, readyUrl) {
  const child = group.start(label, [...benchNodeArgs(label), ...args], { ...backend.env, LOG_LEVEL: 'warn', ...vars });
  child.once('exit', (code, signal) => {
    if (!stopping) abortRun(new Error(`${label} exited during the run (${signal ?? `code ${code}`})`));
  });
  await waitReady(readyUrl, label, child, 90_000);
  return child;
}

/**
 * The subscribers' server: one path per endpoint. Every request is verified with its endpoint's secret and
 * matched to its event; a request that is not a good delivery of the run fails the run at once.
 */
async function startReceiver() {
  const byPath = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const user = byPath.get(req.url);
      const id = req.headers['webhook-id'];
      const event = events.get(id);
      let problem;
      if (!user) problem = `a request to ${req.url}, no endpoint's path`;
      else {
        try {
          user.verifier.verify(body, req.headers);
        } catch (err) {
          problem = `the signature of webhook-id ${id} at endpoint ${user.index} did not verify: ${err.message}`;
        }
      }
      if (!problem && !event) problem = `webhook-id ${id} at endpoint ${user.index} is no event of the run`;
      if (!problem && event.user !== user) problem = `event ${id} of user ${event.user.index} arrived at endpoint ${user.index}`;
      if (!problem) {
        const sent = JSON.parse(body);
        if (sent.type !== TYPE || sent.data?.submissionId !== event.submissionId)
          problem = `webhook-id ${id} carried another body (${body.slice(0, 120)})`;
      }
      if (problem) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(problem);
        abortRun(new Error(problem));
        return;
      }
      event.arrivals.push(at);
      user.received.push(event.userSeq);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    add: (user) => byPath.set(user.path, user),
    close: () => new Promise((resolve) => server.close(resolve)).then(() => undefined),
    closeAll: () => server.closeAllConnections(),
  };
}

/** The baseline: an ordered consumer on the events' subject, noting when each reaches it. */
async function watchBus(names) {
  const nc = await connectNats(NATS_URL, 'bench-webhooks-bus');
  const consumer = await jetstream(nc).consumers.get(names.stream, { filter_subjects: subjectFor(TYPE, names.subjectPrefix) });
  const messages = await consumer.consume();
  let strangers = 0;
  const reading = (async () => {
    for await (const msg of messages) {
      const at = performance.now();
      const event = events.get(msg.headers?.get('Nats-Msg-Id'));
      if (event) event.busAt.push(at);
      else strangers++;
    }
  })();
  return {
    strangers: () => strangers,
    async close() {
      await messages.close();
      await reading.catch(() => undefined);
      await nc.close();
    },
  };
}

/** Publishes one submission.approved of `user` (not awaited: its ack time is noted when it comes). */
function publishFor(js, user, run, n) {
  const submissionId = randomUUID();
  const envelope = buildEventEnvelope(TYPE, {
    submission: approvedClip({ id: submissionId, owner: { id: user.id, handle: user.handle }, n, when: new Date().toISOString() }),
  });
  const event = { id: envelope.id, user, userSeq: user.published++, run, submissionId, sentAt: 0, ackAt: NaN, busAt: [], arrivals: [] };
  events.set(event.id, event);
  user.events.push(event);
  event.sentAt = performance.now();
  const acked = js
    .publish(subjectFor(TYPE, backend.names.subjectPrefix), JSON.stringify(envelope), {
      msgID: envelope.id,
      expect: { streamName: backend.names.stream },
    })
    .then(() => {
      event.ackAt = performance.now();
    });
  return { event, acked };
}

/** developer's delivery log so far: rows, delivered ones, rows needing more than one attempt, (endpoint, event) pairs. */
async function deliveryLog() {
  const { rows } = await db.query(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE attempts > 1)::int AS retried, count(DISTINCT (endpoint_id, message_id))::int AS pairs
       FROM webhook_deliveries`,
  );
  return rows[0];
}

/**
 * Sends `count` events (at `rate` a second, or all at once when `rate` is Infinity) and waits until each
 * has arrived and developer's log shows it delivered, then SETTLE_MS more. Answers the run's figures.
 */
async function run(name, js, count, rate, { expectedRows }) {
  const before = { developer: cpuMs(children.developer), worker: cpuMs(children.worker), self: process.cpuUsage(), load: loadavg()[0] };
  const published = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    if (Number.isFinite(rate)) {
      const wait = t0 + (i * 1000) / rate - performance.now();
      if (wait > 1) await Promise.race([sleep(wait), aborted]);
    }
    published.push(publishFor(js, users[i % users.length], name, i));
  }
  const lastSent = performance.now();
  await Promise.race([Promise.all(published.map((p) => p.acked)), aborted]);
  const runEvents = published.map((p) => p.event);

  const deadline = lastSent + TIMEOUT_MS;
  let logged;
  for (;;) {
    const arrived = runEvents.filter((e) => e.arrivals.length > 0).length;
    if (arrived === count) {
      logged = await deliveryLog();
      if (logged.delivered >= expectedRows) break;
    }
    if (performance.now() > deadline) {
      logged ??= await deliveryLog();
      throw new Error(
        `${name}: ${arrived} of ${count} events arrived, ${logged.delivered} of ${expectedRows} deliveries delivered in developer's log, ${TIMEOUT_MS / 1000} s after the last publish`,
      );
    }
    await Promise.race([sleep(50), aborted]);
  }
  const lastArrival = Math.max(...runEvents.map((e) => e.arrivals[0]));
  await Promise.race([sleep(SETTLE_MS), aborted]);
  logged = await deliveryLog();
  const self = process.cpuUsage(before.self);
  const after = { developer: cpuMs(children.developer), worker: cpuMs(children.worker), load: loadavg()[0] };

  const stages = await stagesOf(runEvents);
  const twice = runEvents.filter((e) => e.arrivals.length > 1);
  const busOther = runEvents.filter((e) => e.busAt.length !== 1);
  const result = {
    name,
    events: count,
    offeredRate: Number.isFinite(rate) ? rate : null,
    sentRate: count > 1 && lastSent > t0 ? (count - 1) / ((lastSent - t0) / 1000) : null,
    deliveredOnce: runEvents.filter((e) => e.arrivals.length === 1).length,
    deliveredTwice: twice.length,
    wallMs: lastArrival - t0,
    pipeline: stats(runEvents.map((e) => e.arrivals[0] - e.ackAt)),
    baseline: stats(runEvents.filter((e) => e.busAt.length > 0).map((e) => e.busAt[0] - e.ackAt)),
    baselineSeenOnce: runEvents.length - busOther.length,
    baselineWallMs: Math.max(...runEvents.map((e) => e.busAt[0] ?? NaN)) - t0,
    publishAck: stats(runEvents.map((e) => e.ackAt - e.sentAt)),
    stages,
    timeline: timeline(runEvents, t0),
    cpuMs: {
      developer: after.developer - before.developer,
      worker: after.worker - before.worker,
      bench: (self.user + self.system) / 1000,
    },
    loadBefore: before.load,
    loadAfter: after.load,
    developerLog: logged,
  };
  log(
    `  ${name}: ${n(result.deliveredOnce)} of ${n(count)} delivered once in ${s(result.wallMs)}; p50 ${ms(result.pipeline.p50)}, p99 ${ms(result.pipeline.p99)} (bus alone p50 ${ms(result.baseline.p50)}, p99 ${ms(result.baseline.p99)})`,
  );
  const problems = [
    twice.length > 0 && `${twice.length} events arrived more than once (e.g. ${twice[0].id}: ${twice[0].arrivals.length} times)`,
    logged.rows !== expectedRows && `developer wrote ${logged.rows} deliveries, expected ${expectedRows}`,
    logged.pairs !== logged.rows && `developer wrote ${logged.rows - logged.pairs} deliveries twice for the same endpoint and event`,
    logged.retried > 0 && `${logged.retried} deliveries needed more than one attempt`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`${name}: ${problems.join('; ')}`);
  return { result, busOther };
}

/**
 * Where each event's time went, from developer's log (its rows' created_at, written in the inbox transaction,
 * and last_attempt_at, when the worker's one attempt started; the same machine's clock as this process's):
 * ack → row written (the bus and developer's consumer), row → attempt started (dispatch, the queue, and the
 * wait behind the endpoint's earlier deliveries), of which the part after the endpoint's previous delivery
 * arrived (the hand-off: webhook.attempted back through developer's consumer, the next dispatch, the worker
 * taking the job), and attempt started → arrival (signing and the HTTP request).
 */
async function stagesOf(runEvents) {
  const { rows } = await db.query(
    `SELECT message_id, extract(epoch FROM created_at) * 1000 AS written, extract(epoch FROM last_attempt_at) * 1000 AS attempted
       FROM webhook_deliveries WHERE message_id = ANY($1)`,
    [runEvents.map((e) => e.id)],
  );
  const origin = performance.timeOrigin;
  for (const r of rows)
    Object.assign(events.get(r.message_id), { writtenAt: Number(r.written) - origin, attemptAt: Number(r.attempted) - origin });
  const handOff = [];
  for (const e of runEvents) {
    const previous = e.user.events[e.userSeq - 1];
    if (previous) handOff.push(e.attemptAt - Math.max(e.writtenAt, previous.arrivals[0]));
  }
  const written = runEvents.map((e) => e.writtenAt);
  return {
    rowsWrittenOverMs: Math.max(...written) - Math.min(...written),
    consumed: stats(runEvents.map((e) => e.writtenAt - e.ackAt)),
    waited: stats(runEvents.map((e) => e.attemptAt - e.writtenAt)),
    handOff: stats(handOff),
    sent: stats(runEvents.map((e) => e.arrivals[0] - e.attemptAt)),
  };
}

/**
 * The run in windows of TIMELINE_MS by publish time: each window's p50 latency and p50 lag of developer's
 * consumer (ack → row written), to tell a queue that built up and drained (the machine busy for a while)
 * from one that grew all along (the pipeline slower than the offered rate).
 */
function timeline(runEvents, t0) {
  const windows = [];
  for (const e of runEvents) (windows[Math.floor((e.sentAt - t0) / TIMELINE_MS)] ??= []).push(e);
  return [...windows].map((w, i) => ({
    fromMs: i * TIMELINE_MS,
    events: w?.length ?? 0,
    p50: w ? stats(w.map((e) => e.arrivals[0] - e.ackAt)).p50 : NaN,
    consumerLagP50: w ? stats(w.map((e) => e.writtenAt - e.ackAt)).p50 : NaN,
  }));
}

/** Per endpoint: whether its user's events arrived in publish order; answers the endpoints out of order. */
function orderProblems() {
  const out = [];
  for (const user of users) {
    const inversions = user.received.filter((seq, i) => i > 0 && seq < user.received[i - 1]).length;
    if (inversions > 0) out.push({ endpoint: user.index, inversions, received: user.received.length });
  }
  return out;
}

const children = {};

async function main() {
  const loadAtStart = loadavg()[0];
  log(
    `# bench:webhooks: ${ENDPOINTS} endpoints, ${n(EVENTS)} events at ${RATE}/s, a burst of ${n(BURST)}; ${cpus().length} cores, load ${loadAtStart.toFixed(2)} at start`,
  );
  backend = await isolatedBackend('webhooks', { otherDatabases: ['developer'] });
  receiver = await startReceiver();

  const [grpcPort, httpPort, workerPort] = [await freePort(), await freePort(), await freePort()];
  children.developer = await startService(
    'developer',
    ['services/developer/dist/main.js'],
    {
      DEVELOPER_DATABASE_URL: backend.databaseUrls.developer,
      DEVELOPER_GRPC_PORT: String(grpcPort),
      DEVELOPER_HTTP_PORT: String(httpPort),
      DEVELOPER_BIND_HOST: '127.0.0.1',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    },
    `http://127.0.0.1:${httpPort}/health/ready`,
  );
  children.worker = await startService(
    'webhook-worker',
    ['services/webhook-worker/dist/main.js'],
    { WEBHOOK_WORKER_HTTP_PORT: String(workerPort), WEBHOOK_WORKER_BIND_HOST: '127.0.0.1', WEBHOOK_ALLOW_LOOPBACK: 'true' },
    `http://127.0.0.1:${workerPort}/health/ready`,
  );
  db = new pg.Client({ connectionString: backend.databaseUrls.developer });
  await db.connect();

  client = contractClient(developerContract, `127.0.0.1:${grpcPort}`);
  for (let i = 0; i < ENDPOINTS; i++) {
    const user = { index: i, id: randomUUID(), handle: `bench_hook_${i}`, path: `/hooks/${i}`, published: 0, received: [], events: [] };
    const created = await client.createEndpoint({ userId: user.id, url: receiver.url(user.path), events: [TYPE] });
    user.endpointId = created.endpoint.id;
    user.verifier = new Webhook(created.secret);
    receiver.add(user);
    users.push(user);
  }

  // The stream exists once developer has started (it declares it).
  bus = await watchBus(backend.names);
  publisherNc = await connectNats(NATS_URL, 'bench-webhooks-publisher');
  const js = jetstream(publisherNc);

  let rows = 0;
  rows += ENDPOINTS;
  const warmUp = await run('warm-up', js, ENDPOINTS, Infinity, { expectedRows: rows });
  rows += EVENTS;
  const steady = await run(`steady, ${RATE}/s`, js, EVENTS, RATE, { expectedRows: rows });
  rows += BURST;
  const burst = await run('burst, all at once', js, BURST, Infinity, { expectedRows: rows });

  const runs = [steady, burst];
  refuseBaseline(
    'bus hop (ordered consumer)',
    runs.flatMap(({ result, busOther }) => [
      ...timedProblems(result.baselineWallMs),
      busOther.length > 0 && `${result.name}: ${busOther.length} events not seen exactly once by the consumer`,
    ]),
    'no table printed',
  );
  const outOfOrder = orderProblems();
  const order =
    outOfOrder.length === 0
      ? `every endpoint received its user's events in publish order (${n(ENDPOINTS + EVENTS + BURST)} deliveries, ${ENDPOINTS} endpoints)`
      : `${outOfOrder.length} endpoints received events out of publish order: ${outOfOrder.map((o) => `#${o.endpoint} (${o.inversions} inversions)`).join(', ')}`;

  log('');
  log(
    `Latency: arrival at the receiver (signature verified) minus the publish's JetStream acknowledgement; the bus hop alone from the same acknowledgement to an ordered consumer in the bench process. ${ENDPOINTS} endpoints, one per user, one webhook worker (concurrency ${env('WEBHOOK_WORKER_CONCURRENCY', '10')}).`,
  );
  log('');
  log('| run | path | events | delivered once | p50 | p95 | p99 | max | wall time |');
  log('|---|---|---|---|---|---|---|---|---|');
  for (const { result: r } of runs) {
    log(
      `| ${r.name} | event → receiver | ${n(r.events)} | ${n(r.deliveredOnce)} | ${ms(r.pipeline.p50)} | ${ms(r.pipeline.p95)} | ${ms(r.pipeline.p99)} | ${ms(r.pipeline.max)} | ${s(r.wallMs)} |`,
    );
    log(
      `| ${r.name} | baseline: bus hop | ${n(r.events)} | ${n(r.baselineSeenOnce)} | ${ms(r.baseline.p50)} | ${ms(r.baseline.p95)} | ${ms(r.baseline.p99)} | ${ms(r.baseline.max)} | ${s(r.baselineWallMs)} |`,
    );
  }
  log('');
  log(
    '| run | publishes sent at | publish round trip p50 / p99 | developer CPU | worker CPU | bench process CPU | load (1 min) before → after |',
  );
  log('|---|---|---|---|---|---|---|');
  for (const { result: r } of runs) {
    log(
      `| ${r.name} | ${r.sentRate === null ? '—' : `${r.sentRate.toFixed(0)}/s`} | ${ms(r.publishAck.p50)} / ${ms(r.publishAck.p99)} | ${s(r.cpuMs.developer)} | ${s(r.cpuMs.worker)} | ${s(r.cpuMs.bench)} | ${r.loadBefore.toFixed(2)} → ${r.loadAfter.toFixed(2)} |`,
    );
  }
  log('');
  log(
    "Where the time went (p50 / p99), from developer's log: its delivery row written in the inbox transaction, the worker's attempt started, and the hand-off: from the endpoint's previous delivery arriving to this one's attempt starting.",
  );
  log('');
  log('| run | ack → row written | row → attempt started | hand-off after the previous arrival | attempt → arrival |');
  log('|---|---|---|---|---|');
  for (const { result: r } of runs) {
    const pair = (x) => `${ms(x.p50)} / ${ms(x.p99)}`;
    log(`| ${r.name} | ${pair(r.stages.consumed)} | ${pair(r.stages.waited)} | ${pair(r.stages.handOff)} | ${pair(r.stages.sent)} |`);
  }
  log('');
  log(
    `Steady run by ${TIMELINE_MS / 1000} s of publishing, p50 latency (developer's consumer lag): ${steady.result.timeline.map((w) => `${ms(w.p50)} (${ms(w.consumerLagP50)})`).join(', ')}.`,
  );
  log('');
  log(
    `Order: ${order}. Burst: drained in ${s(burst.result.wallMs)}, p99 ${ms(burst.result.pipeline.p99)}; developer wrote its ${n(BURST)} rows over ${s(burst.result.stages.rowsWrittenOverMs)} (one consumer, the outcomes of the deliveries under way applied in between).`,
  );
  log('');
  log(
    `Repeat: BENCH_WEBHOOK_ENDPOINTS=${ENDPOINTS} BENCH_WEBHOOK_EVENTS=${EVENTS} BENCH_WEBHOOK_RATE=${RATE} BENCH_WEBHOOK_BURST=${BURST} npm run bench:webhooks`,
  );

  await mkdir(join(root, 'artifacts', 'bench'), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        cores: cpus().length,
        loadAtStart,
        endpoints: ENDPOINTS,
        events: EVENTS,
        rate: RATE,
        burst: BURST,
        workerConcurrency: Number(env('WEBHOOK_WORKER_CONCURRENCY', '10')),
        order: { inOrder: outOfOrder.length === 0, outOfOrder },
        strangersOnTheBus: bus.strangers(),
        warmUp: warmUp.result,
        runs: runs.map((r) => r.result),
      },
      null,
      2,
    )}\n`,
  );
  if (outOfOrder.length > 0) throw new Error(order);
}

// A failure the receiver or a child reports ends the run at once; main's own later failure is then moot.
const running = main();
running.catch(() => undefined);
await runBench(Promise.race([running, aborted]), async () => {
  stopping = true;
  client?.close();
  receiver?.closeAll();
  await group.stop();
  await bus?.close();
  await publisherNc?.close();
  await receiver?.close();
  await db?.end();
  await backend?.cleanup();
});

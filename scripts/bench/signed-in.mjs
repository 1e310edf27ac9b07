// Benchmark of signed-in reads against visitors' (issue 34), at the issue's size: BENCH_USERS users (10,000),
// BENCH_CLIPS approved clips in the feed (100,000) and BENCH_LIKES likes (200,000), seeded as their owners'
// events (seed.mjs). BENCH_SESSIONS of those users (1,000) get a live session at identity (written into
// its tables as a sign-in would leave them: the password hashing of 1,000 sign-ups is not what is
// measured), among them every user who liked a clip of the first page; signed-in loads use those sessions
// round-robin, each connection a share of them of its own (all of them in use at any moment).
//
// Only what the measured reads need runs, built the fast way, so a full-size run takes minutes (about
// 10 on a quiet 2-core machine), not the hours the services' consumers need for 310,000 events one by one:
// - the gateway with identity (sessions, /me), feed (the pages, the likes, profiles, creators) and rewards
//   (the dashboard); submissions, campaigns, social and admin are not started (the gateway only reports
//   them missing), nor is anything measured through them;
// - feed: its read models built from the whole stream by its own replay (`feed:replay --swap`, batched);
//   its consumer starts after what the replay applied;
// - identity: consumes none of the seeded event types (its users and the sessions are written into its
//   tables), so its consumer starts after the seed;
// - rewards: builds, through its own consumer and handlers, the rows of the dashboards the benchmark reads
//   and only those: the sessions' users and the streamers they tag are seeded last (seedEvents' `last`,
//   after the likes) and rewards' consumer starts there. Every other clipper has no rewards rows (their
//   dashboards are not read; the feed shows them with no clip points). What rewards publishes on the way
//   (standings, earnings) is applied by feed and identity as in production, before anything is measured.
//
// One table: each read (the visitor's feed page, the signed-in feed page, /api/dashboard, /api/user/me, a
// clipper profile and the creators tab, signed in and as a visitor) with the gateway's req/s, its ratio to
// a bare node:http server sending that read's very bytes in the same run (same autocannon settings:
// BENCH_CONNECTIONS=100 for BENCH_DURATION=6 s, the same request headers), p99, the CPU the gateway spent
// per request, and the share of the requests answered at a front (the rest went through the routes).
// Each read runs BENCH_ROUNDS (3) rounds of gateway then bare, and each figure is the median of its rounds:
// one run on a two-core virtual machine can be a fifth off the next. Before each signed-in round, every
// session reads it (readers coming back: their session, likes and dashboard in the gateway's caches, as in
// steady use; again until a pass is answered wholly at the front), then the usual 2 s warm-up.
// It exits non-zero when a target is missed:
//   signed-in feed page ≥ 40 % of bare and p99 < 25 ms; /api/dashboard ≥ 20 % and p99 < 50 ms;
//   /api/user/me ≥ 50 %; profile and creators signed in at least BENCH_SAME_AS_VISITOR (0.85) of the
//   visitor's ratio (the same front path; the margin is for a busy machine's noise).
// A bare server that errors or runs under 1,000 req/s (50 MB/s for a large answer) is refused ("baseline broken", exit 1; baseline.mjs),
// and so is any answer that is not 2xx (BENCH_LOG_DIR=<dir> keeps every process's log there to see why).
//
//   npm run bench:signed-in     (part of npm run bench; builds the services first, tsc -b)
//   BENCH_CLIPS=5000 BENCH_USERS=2000 BENCH_LIKES=10000 BENCH_SESSIONS=200 npm run bench:signed-in
//
// Everything runs on databases, stream names, a Redis prefix and a storage folder of its own, removed at the end.
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runBench, httpStaticFloorsFor } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { log, measure } from './measure.mjs';
import { cpuMs, processGroup } from './processes.mjs';
import { lastSequence, replayFeed, startConsumerAt, untilConsumersCaughtUp } from './replay.mjs';
import { SAME_ENCODING, sampleAnswer, startBareServer, startServices } from './services.mjs';
import { isStreamer, pool, seedEvents } from './seed.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '100'));
const DURATION = Number(env('BENCH_DURATION', '6'));
const ROUNDS = Number(env('BENCH_ROUNDS', '3'));
const USERS = Number(env('BENCH_USERS', '10000'));
const CLIPS = Number(env('BENCH_CLIPS', '100000'));
const LIKES = Number(env('BENCH_LIKES', '200000'));
const SESSIONS = Math.min(Number(env('BENCH_SESSIONS', '1000')), USERS);
const SAME_AS_VISITOR = Number(env('BENCH_SAME_AS_VISITOR', '0.85'));
const PAGE_SIZE = 10;

const group = processGroup(root);
let backend;

/**
 * Sessions at identity for `readers` (seeded users, made identity's users here with the same ids): the
 * rows a sign-in writes (the stored key is the SHA-256 of the cookie's id). Answers the cookies.
 */
async function sessionsFor(readers) {
  const db = new pg.Client({ connectionString: backend.databaseUrl });
  await db.connect();
  try {
    const cookies = [];
    for (let i = 0; i < readers.length; i += 500) {
      const batch = readers.slice(i, i + 500);
      await db.query(
        `INSERT INTO users (id, email, display_name, twitter_username, wallet_address, role, created_at, updated_at)
         SELECT u.id, lower(u.twitter_username) || '@example.com', u.display_name, u.twitter_username, u.wallet_address, u.role, u.created_at, u.created_at
         FROM json_to_recordset($1::json) AS u(id uuid, display_name text, twitter_username text, wallet_address text, role text, created_at timestamptz)`,
        [
          JSON.stringify(
            batch.map(({ id, displayName, twitterUsername, walletAddress, role, createdAt }) => ({
              id,
              display_name: displayName,
              twitter_username: twitterUsername,
              wallet_address: walletAddress,
              role,
              created_at: createdAt,
            })),
          ),
        ],
      );
      const sids = batch.map(() => randomBytes(32).toString('base64url'));
      await db.query(
        `INSERT INTO sessions (sid, sess, expire, last_seen_at)
         SELECT s.key, json_build_object('userId', s.user_id, 'ip', null, 'userAgent', null, 'createdAt', now(), 'method', 'password'), now() + interval '14 days', now()
         FROM json_to_recordset($1::json) AS s(key text, user_id uuid)`,
        [JSON.stringify(batch.map((u, n) => ({ key: createHash('sha256').update(sids[n]).digest('base64url'), user_id: u.id })))],
      );
      cookies.push(...sids.map((sid) => `clipit.sid=${sid}`));
    }
    return cookies;
  } finally {
    await db.end();
  }
}

/**
 * The readers' user numbers: every user who liked a clip of the first page (newest clips, seed.mjs's like
 * pattern), then others; known before the seed, which puts their events last.
 */
function readerNumbers() {
  const likers = new Set();
  for (let clip = CLIPS - PAGE_SIZE; clip < CLIPS; clip += 1)
    for (let round = 0; round * CLIPS + clip < LIKES; round += 1) likers.add((clip * 13 + round * 101) % USERS);
  const chosen = [...likers].slice(0, SESSIONS);
  for (let i = 0; chosen.length < SESSIONS; i += 1) if (!likers.has(i)) chosen.push(i);
  return { numbers: chosen, likers: Math.min(likers.size, SESSIONS) };
}

/**
 * How many reads the gateway has answered at its fronts so far, public or signed-in (its metrics): a
 * signed-in profile or creators read is answered by the public front, the same for everyone.
 */
async function frontAnswers(gateway) {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return [...text.matchAll(/^gateway_(?:signed_in_)?front_answers_total(?:\{[^}]*\})? (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/**
 * One read measured: through the gateway (with `cookies` round-robin, each connection starting at another,
 * or as a visitor), then a bare server with the same bytes and the same request headers. Answers a row.
 */
async function read(label, gateway, path, cookies) {
  const headersOf = (cookie) => ({ ...SAME_ENCODING, ...(cookie ? { cookie } : {}) });
  const sample = await sampleAnswer(`${gateway.url}${path}`, { headers: headersOf(cookies?.[0]) });
  if (sample.status !== 200) throw new Error(`${label}: ${path} answered ${sample.status}: ${sample.body}`);
  const requests = cookies ? cookies.map((cookie) => ({ method: 'GET', path, headers: headersOf(cookie) })) : undefined;
  let next = 0;
  const share = requests ? Math.ceil(requests.length / CONNECTIONS) : 0;
  const load = requests
    ? {
        url: gateway.url,
        requests: requests.slice(0, 1),
        // Each connection walks a share of the sessions of its own (1,000 / 100: 10), so all of them are
        // in use at any moment. Not every session on every connection: autocannon builds each client's
        // requests when it starts, and 100 × 1,000 of them stalled the first seconds of a measured run.
        setupClient: (client) => {
          const from = (next++ * share) % requests.length;
          client.setRequests(Array.from({ length: share }, (_, k) => requests[(from + k) % requests.length]));
        },
      }
    : { url: `${gateway.url}${path}`, headers: headersOf() };
  const opts = { connections: CONNECTIONS, duration: DURATION, warmConnections: 10, labelWidth: 40 };
  // Readers coming back: each session has read this before (its session, likes or dashboard cached, as in
  // steady use). Passes over every session until one is answered wholly at the front: on a loaded machine a
  // first pass can take longer than a session-cache entry lives (10 s), and only a read refreshes one.
  const comeBack = async () => {
    if (!cookies) return;
    for (let pass = 1; pass <= 5; pass += 1) {
      const before = await frontAnswers(gateway);
      await pool(
        cookies.map((cookie) => async () => {
          const answer = await sampleAnswer(`${gateway.url}${path}`, { headers: headersOf(cookie) });
          if (answer.status !== 200) throw new Error(`${label}: ${path} answered ${answer.status}: ${answer.body}`);
        }),
        CONNECTIONS,
      );
      if ((await frontAnswers(gateway)) - before >= cookies.length) break;
    }
  };
  const { url: bareUrl, child: bare } = await startBareServer(group, `bare ${label}`, sample, headersOf(cookies?.[0]));
  // Rounds side by side: the gateway, then the bare server, ROUNDS times; each figure is the median of its
  // rounds. On a two-core virtual machine one run of either can be a fifth off the next; a drift then
  // moves both sides of a round, and one odd round moves no median.
  const rounds = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      await comeBack();
      let cpuBefore = 0;
      let frontBefore = 0;
      const measured = await measure(`gateway ${label} (${round}/${ROUNDS})`, load, {
        ...opts,
        afterWarmUp: async () => {
          cpuBefore = cpuMs(gateway.child);
          frontBefore = await frontAnswers(gateway);
        },
      });
      const cpuUs = (((cpuMs(gateway.child) ?? NaN) - cpuBefore) * 1000) / measured.requests.total;
      // The share of the measured requests answered at a front (public or signed-in); the rest went through the routes.
      const frontShare = ((await frontAnswers(gateway)) - frontBefore) / measured.requests.total;
      const plain = await measure(
        `bare node:http, same bytes (${round}/${ROUNDS})`,
        { url: `${bareUrl}${path}`, headers: headersOf(cookies?.[0]) },
        { ...opts, baseline: httpStaticFloorsFor(sample.body.length) },
      );
      rounds.push({
        rps: measured.requests.average,
        ratio: measured.requests.average / plain.requests.average,
        p99: measured.latency.p99,
        cpuUs,
        frontShare,
      });
    }
  } finally {
    bare.kill('SIGTERM');
  }
  const middle = (key) => median(rounds.map((r) => r[key]));
  return {
    label,
    rps: middle('rps'),
    ratio: middle('ratio'),
    p99: middle('p99'),
    cpuUs: middle('cpuUs'),
    frontShare: Math.min(...rounds.map((r) => r.frontShare)),
    bytes: sample.body.length,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const started = performance.now();
  backend = await isolatedBackend('benchsignedin', { otherDatabases: ['feed', 'rewards'] });
  const names = { stream: backend.env.EVENTS_STREAM, subjectPrefix: backend.env.EVENTS_SUBJECT_PREFIX };
  const { numbers, likers } = readerNumbers();
  // The readers and the streamers their clips may tag last: rewards builds their rows alone (see above).
  const last = new Set([...numbers, ...Array.from({ length: USERS }, (_, i) => i).filter(isStreamer)]);
  const seeded = await seedEvents(backend.env.NATS_URL, names, { users: USERS, clips: CLIPS, likes: LIKES, last });
  log(
    `published ${USERS} users, ${CLIPS} clips and ${LIKES} likes as events in ${(seeded.ms / 1000).toFixed(1)} s (${last.size} users' last, from sequence ${seeded.tailFrom})`,
  );
  await startConsumerAt(backend, names, 'identity', (await lastSequence(backend, names)) + 1);
  await startConsumerAt(backend, names, 'rewards', seeded.tailFrom);
  const rebuilt = await replayFeed(root, backend);
  log(`feed:replay --swap built the read models from ${rebuilt.applied} events in ${(rebuilt.ms / 1000).toFixed(1)} s`);
  const gatewayLog = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info' };
  const { gatewayUrl, children } = await startServices(group, backend, ['identity', 'feed', 'rewards'], {
    serviceEnv: { gateway: gatewayLog },
  });
  const caughtUp = performance.now();
  await untilConsumersCaughtUp(backend, names);
  log(
    `rewards applied the readers' events, and feed and identity what it published, in ${((performance.now() - caughtUp) / 1000).toFixed(1)} s`,
  );

  const cookies = await sessionsFor(numbers.map((i) => seeded.users[i]));
  log(`${cookies.length} sessions at identity, ${likers} of them of readers with likes on the first page`);
  const gateway = { url: gatewayUrl, child: children.gateway };
  // What the signed-in page must show: likes laid over, as the route without caches answers them.
  const page = `/api/feed/clips?limit=${PAGE_SIZE}`;
  const firstLiker = JSON.parse((await sampleAnswer(`${gatewayUrl}${page}`, { headers: { cookie: cookies[0] } })).body.toString());
  if (likers > 0 && !firstLiker.submissions.some((c) => c.likedByCurrentUser))
    throw new Error('the first reader sees none of their likes on the page');
  const profile = `/api/clipper/${firstLiker.submissions[0].userId}`;

  log(
    `\n${CONNECTIONS} connections, ${DURATION} s per run; each read in ${ROUNDS} rounds beside a bare node:http server sending its bytes (medians)`,
  );
  const rows = [
    await read('feed page, visitor', gateway, page),
    await read('feed page, signed in', gateway, page, cookies),
    await read('/api/dashboard', gateway, '/api/dashboard', cookies),
    await read('/api/user/me', gateway, '/api/user/me', cookies),
    await read('clipper profile, visitor', gateway, profile),
    await read('clipper profile, signed in', gateway, profile, cookies),
    await read('creators, visitor', gateway, '/api/creators/clippers'),
    await read('creators, signed in', gateway, '/api/creators/clippers', cookies),
  ];
  const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
  const misses = [];
  const target = (label, check, words) => {
    if (!check(byLabel[label])) misses.push(`${label}: ${words}`);
    return words;
  };
  const targets = {
    'feed page, signed in': target('feed page, signed in', (r) => r.ratio >= 0.4 && r.p99 < 25, '≥ 40 %, p99 < 25 ms'),
    '/api/dashboard': target('/api/dashboard', (r) => r.ratio >= 0.2 && r.p99 < 50, '≥ 20 %, p99 < 50 ms'),
    '/api/user/me': target('/api/user/me', (r) => r.ratio >= 0.5, '≥ 50 %'),
    'clipper profile, signed in': target(
      'clipper profile, signed in',
      (r) => r.ratio >= SAME_AS_VISITOR * byLabel['clipper profile, visitor'].ratio,
      `≥ ${SAME_AS_VISITOR} × visitor's`,
    ),
    'creators, signed in': target(
      'creators, signed in',
      (r) => r.ratio >= SAME_AS_VISITOR * byLabel['creators, visitor'].ratio,
      `≥ ${SAME_AS_VISITOR} × visitor's`,
    ),
  };
  log(
    `\n${'read'.padEnd(28)} ${'req/s'.padStart(8)} ${'of bare'.padStart(8)} ${'p99'.padStart(7)} ${'CPU/req'.padStart(9)} ${'front'.padStart(7)} ${'bytes'.padStart(7)}  target`,
  );
  for (const r of rows)
    log(
      `${r.label.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} ${`${(r.ratio * 100).toFixed(1)} %`.padStart(8)} ${`${r.p99} ms`.padStart(7)} ${`${(r.cpuUs / 1000).toFixed(3)} ms`.padStart(9)} ${`${(r.frontShare * 100).toFixed(1)} %`.padStart(7)} ${String(r.bytes).padStart(7)}  ${targets[r.label] ?? ''}`,
    );
  log(
    `(users ${USERS}, clips ${CLIPS}, likes ${LIKES}, sessions ${cookies.length}; ${((performance.now() - started) / 60_000).toFixed(1)} min in all)`,
  );
  if (misses.length > 0) throw new Error(`targets missed: ${misses.join('; ')}`);
  log('every target met');
}

await runBench(main, async () => {
  await group.stop();
  await backend?.cleanup();
});

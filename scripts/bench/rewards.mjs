// Benchmark of rewards' two batch jobs at platform scale, each beside a baseline measured in the same run:
//   1. recomputing every clipper's points and tiers: BENCH_REWARDS_CLIPPERS clippers (10,000) with
//      BENCH_REWARDS_PER_CLIPPER submissions each (50: 500,000 in all), first when every standing changes
//      (each change also writes its rewards.standing-changed event to the outbox), then again with nothing
//      to change; the baseline is a bare read of the same facts (one SELECT of every decided submission);
//   2. the weekly payout run for those clippers with the ledger driver (each clipper's earnings gathered,
//      recorded and marked paid, each payout's event in the outbox); the baseline is the same number of
//      one-row transactions, the least any run of one transaction per clipper costs.
// Time in seconds and the process's peak memory (RSS and heap) for each. A baseline that takes no time or
// does not read or write every row it should is refused ("baseline broken: …", exit 1; baseline.mjs).
//
//   npm run bench:rewards      (BENCH_REWARDS_CLIPPERS=10000 BENCH_REWARDS_PER_CLIPPER=50 by default)
//
// rewards runs in this process (built with tsc -b first) on a Postgres database, JetStream stream, Redis
// prefix and storage folder of its own, all removed when the benchmark ends.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { isolatedBackend } from './isolation.mjs';
import { freePort } from './processes.mjs';
import { failureText, refuseBaseline, timedProblems } from './baseline.mjs';
import { log } from './measure.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const CLIPPERS = Number(env('BENCH_REWARDS_CLIPPERS', '10000'));
const PER_CLIPPER = Number(env('BENCH_REWARDS_PER_CLIPPER', '50'));
const EARNINGS_PER_CLIPPER = 5;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * Runs `work`, sampling memory every 20 ms; seconds taken and the peaks seen. `problems(result)` (may be
 * async), for a baseline, lists what makes it unfit to compare with: it is refused before its line is printed.
 */
async function timed(label, work, problems) {
  global.gc?.();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const t0 = performance.now();
  let result;
  try {
    result = await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  if (problems) refuseBaseline(label, [...timedProblems(seconds * 1000), ...(await problems(result))], 'no comparison printed');
  log(
    `${label.padEnd(52)} ${seconds.toFixed(2).padStart(7)} s   peak RSS ${mb(peakRss)} (+${mb(peakRss - start.rss)}), peak heap ${mb(peakHeap)} (+${mb(Math.max(0, peakHeap - start.heapUsed))})`,
  );
  return { seconds, result };
}

async function seed(db) {
  log(`seeding ${CLIPPERS.toLocaleString('en-US')} clippers with ${(CLIPPERS * PER_CLIPPER).toLocaleString('en-US')} submissions ...`);
  // 200 streamers to tag, with follower counts across the multiplier steps.
  await db.query(`INSERT INTO people (id, role, display_name, streamer_multiplier, follower_count, source_updated_at)
    SELECT gen_random_uuid(), 'streamer', 'Streamer ' || i, 1.00, (i * 97) % 12000, now() FROM generate_series(1, 200) i`);
  await db.query(
    `INSERT INTO people (id, role, display_name, wallet_address, source_updated_at)
    SELECT gen_random_uuid(), 'clipper', 'Clipper ' || i,
      CASE WHEN i % 50 = 0 THEN NULL ELSE '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJ' || translate(lpad(i::text, 5, '1'), '0', 'z') END, now()
    FROM generate_series(1, $1) i`,
    [CLIPPERS],
  );
  // Each clipper: 70% approved (spread over 60 days, some tagged with a streamer's multiplier), 20% rejected, 10% pending.
  await db.query(
    `INSERT INTO submissions (id, user_id, streamer_id, name, url, platform, status, rejected_reason, views, approved_at, streamer_multiplier, created_at, source_updated_at)
    SELECT gen_random_uuid(), p.id, NULL, 'Clip ' || n, 'https://x.com/c/status/' || n, 'twitter',
      CASE WHEN n % 10 < 7 THEN 'approved' WHEN n % 10 < 9 THEN 'rejected' ELSE 'pending' END,
      CASE WHEN n % 10 BETWEEN 7 AND 8 THEN 'Not a clip of the stream' END,
      (hashtext(p.id::text || n) & 8191),
      CASE WHEN n % 10 < 7 THEN now() - ((hashtext(p.id::text || n || 'a') & 1439) * interval '1 hour') END,
      CASE WHEN n % 10 < 7 THEN 1 + (hashtext(p.id::text || n || 'm') & 3) * 0.25 END,
      now() - interval '61 days', now()
    FROM people p CROSS JOIN generate_series(1, $1) n WHERE p.role = 'clipper'`,
    [PER_CLIPPER],
  );
  await db.query(`INSERT INTO clipper_standings (user_id, breakdown) SELECT id, '{}'::jsonb FROM people WHERE role = 'clipper'`);
  await db.query('ANALYZE');
}

async function main() {
  log('building rewards (tsc -b) ...');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript-native/bin/tsc'), '-b', 'services/rewards'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error('build failed');
  const dist = (path) => pathToFileURL(join(root, 'services/rewards/dist', path)).href;
  const { bootstrapRewards, runPayouts } = await import(dist('app.js'));
  const { StandingService } = await import(dist('services/standing.service.js'));

  const backend = await isolatedBackend('benchrewards', { otherDatabases: ['rewards'] });
  let app;
  const db = new pg.Client({ connectionString: backend.databaseUrls.rewards });
  try {
    app = await bootstrapRewards({
      ...backend.env,
      REWARDS_DATABASE_URL: backend.databaseUrls.rewards,
      REWARDS_GRPC_PORT: await freePort(),
      REWARDS_HTTP_PORT: await freePort(),
      REWARDS_BIND_HOST: '127.0.0.1',
      REWARDS_JOBS: 'false',
      LOG_LEVEL: 'warn',
    });
    await db.connect();
    await seed(db);
    const standings = app.get(StandingService);

    log('');
    log(
      `recompute of every standing: ${CLIPPERS.toLocaleString('en-US')} clippers, ${(CLIPPERS * PER_CLIPPER).toLocaleString('en-US')} submissions`,
    );
    // The seed decides n % 10 < 9 of each clipper's submissions (approved or rejected): all of them must be read.
    const decided = CLIPPERS * Array.from({ length: PER_CLIPPER }, (_, k) => (k + 1) % 10 < 9).filter(Boolean).length;
    await timed(
      'baseline: one SELECT of every decided submission',
      async () => {
        const { rowCount } = await db.query(
          "SELECT user_id, status, approved_at, views, streamer_multiplier FROM submissions WHERE status <> 'pending'",
        );
        return rowCount;
      },
      (rows) => [rows !== decided && `read ${rows} rows, not the ${decided} decided submissions`],
    );
    const first = await timed('recompute, every standing changes (+ outbox)', () => standings.recomputeAll(new Date()));
    log(
      `  ${first.result.clippers} clippers, ${first.result.changed} changed: ${(first.result.clippers / first.seconds).toFixed(0)} clippers/s`,
    );
    const second = await timed('recompute again, nothing to change', () => standings.recomputeAll(new Date()));
    log(
      `  ${second.result.clippers} clippers, ${second.result.changed} changed: ${(second.result.clippers / second.seconds).toFixed(0)} clippers/s`,
    );

    log('');
    log(
      `weekly payout run, ledger driver: ${CLIPPERS.toLocaleString('en-US')} clippers with ${EARNINGS_PER_CLIPPER} pending earnings each`,
    );
    await db.query(
      `INSERT INTO earnings (id, user_id, submission_id, amount, tier_level, multiplier, created_at)
      SELECT gen_random_uuid(), s.user_id, s.id, 10 * s.streamer_multiplier, 1, s.streamer_multiplier, now() - interval '8 days'
      FROM (SELECT id, user_id, streamer_multiplier, row_number() OVER (PARTITION BY user_id ORDER BY id) AS k FROM submissions WHERE status = 'approved') s
      WHERE s.k <= $1`,
      [EARNINGS_PER_CLIPPER],
    );
    await db.query('ANALYZE earnings');
    await timed(
      `baseline: ${CLIPPERS.toLocaleString('en-US')} one-row transactions`,
      async () => {
        await db.query('CREATE TEMP TABLE bench_tx (id int)');
        for (let i = 0; i < CLIPPERS; i += 1) {
          await db.query('BEGIN');
          await db.query('INSERT INTO bench_tx VALUES ($1)', [i]);
          await db.query('COMMIT');
        }
      },
      async () => {
        const committed = (await db.query('SELECT count(*)::int AS n FROM bench_tx')).rows[0].n;
        return [committed !== CLIPPERS && `committed ${committed} rows, not ${CLIPPERS}`];
      },
    );
    const run = await timed('payout run', () => runPayouts(app, new Date()));
    log(
      `  ${run.result.paid} paid, ${run.result.amount} $CLIP, ${run.result.skipped.length} skipped (every 50th clipper has no wallet): ${(run.result.paid / run.seconds).toFixed(0)} payouts/s`,
    );
    const again = await timed('payout run again (nothing left to pay)', () => runPayouts(app, new Date()));
    log(`  ${again.result.paid} paid`);
  } finally {
    await db.end().catch(() => undefined);
    await app?.close();
    await backend.cleanup();
  }
}

main().catch((err) => {
  console.error(failureText(err));
  process.exitCode = 1;
});

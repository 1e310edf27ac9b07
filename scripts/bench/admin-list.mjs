// Benchmark of the admin list at depth: GET /api/admin/submissions (gateway → admin → submissions, and
// identity for the clippers' handles) over BENCH_ADMIN_ROWS submissions (30,000 by default), the first
// page against the last one, in the same run. The list is keyset-paged (ADR 0020), so the last page
// should cost what the first does; an OFFSET list would scan every row before it.
//
//   npm run bench:admin      (BENCH_ADMIN_ROWS=30000 BENCH_CONNECTIONS=10 BENCH_DURATION=10 by default)
//
// It builds the five services (tsc -b, incremental), runs them as processes on a Postgres database,
// JetStream stream names, Redis key prefix and storage folder of its own, and removes all of them when it ends.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { identityEnv, isolatedBackend } from './isolation.mjs';
import { freePort, processGroup, waitReady } from './processes.mjs';
import { runBench, refuseBaseline } from './baseline.mjs';
import { log, measure } from './measure.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const ROWS = Number(env('BENCH_ADMIN_ROWS', '30000'));
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '10'));
const DURATION = Number(env('BENCH_DURATION', '10'));
const PAGE = 50;
const PASSWORD = `bench-${randomBytes(6).toString('hex')}`;

const group = processGroup(root);
let backend;

const run = async (label, opts, baseline) => {
  const result = await measure(label, opts, { connections: CONNECTIONS, duration: DURATION, warmConnections: 4, labelWidth: 34, baseline });
  return result;
};
/**
 * The floors of the first page, the baseline the last is divided by. It is no static answer (four services
 * and Postgres), so they sit far below what it does: under them the run is broken, not slow.
 */
const FIRST_PAGE_FLOORS = { minRps: 10, maxP99Ms: 5000 };

async function ready(label, args, extraEnv, httpPort) {
  const child = group.start(label, args, extraEnv);
  await waitReady(`http://127.0.0.1:${httpPort}/health/ready`, label, child, 90_000);
}

async function main() {
  log('building identity, submissions, campaigns, admin and gateway (tsc -b) ...');
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript-native/bin/tsc'),
      '-b',
      'services/identity',
      'services/submissions',
      'services/campaigns',
      'services/admin',
      'services/gateway',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) throw new Error('build failed');

  backend = await isolatedBackend('benchadmin', { otherDatabases: ['submissions', 'admin', 'campaigns'] });
  const ports = {};
  for (const name of [
    'identityGrpc',
    'identityHttp',
    'submissionsGrpc',
    'submissionsHttp',
    'campaignsGrpc',
    'campaignsHttp',
    'adminGrpc',
    'adminHttp',
    'gateway',
  ])
    ports[name] = await freePort();
  const shared = { ...backend.env, LOG_LEVEL: 'warn' };
  const identityUrl = `127.0.0.1:${ports.identityGrpc}`;

  await ready(
    'identity',
    ['services/identity/dist/main.js'],
    { ...shared, ...identityEnv(backend, { grpcPort: ports.identityGrpc, httpPort: ports.identityHttp }) },
    ports.identityHttp,
  );
  await ready(
    'submissions',
    ['services/submissions/dist/main.js'],
    {
      ...shared,
      SUBMISSIONS_DATABASE_URL: backend.databaseUrls.submissions,
      SUBMISSIONS_GRPC_PORT: String(ports.submissionsGrpc),
      SUBMISSIONS_HTTP_PORT: String(ports.submissionsHttp),
      SUBMISSIONS_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityUrl,
    },
    ports.submissionsHttp,
  );
  await ready(
    'campaigns',
    ['services/campaigns/dist/main.js'],
    {
      ...shared,
      CAMPAIGNS_DATABASE_URL: backend.databaseUrls.campaigns,
      CAMPAIGNS_GRPC_PORT: String(ports.campaignsGrpc),
      CAMPAIGNS_HTTP_PORT: String(ports.campaignsHttp),
      CAMPAIGNS_BIND_HOST: '127.0.0.1',
    },
    ports.campaignsHttp,
  );
  await ready(
    'admin',
    ['services/admin/dist/main.js'],
    {
      ...shared,
      ADMIN_DATABASE_URL: backend.databaseUrls.admin,
      ADMIN_GRPC_PORT: String(ports.adminGrpc),
      ADMIN_HTTP_PORT: String(ports.adminHttp),
      ADMIN_BIND_HOST: '127.0.0.1',
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_TOKEN_SECRET: randomBytes(32).toString('hex'),
      SUBMISSIONS_GRPC_URL: `127.0.0.1:${ports.submissionsGrpc}`,
      IDENTITY_GRPC_URL: identityUrl,
      CAMPAIGNS_GRPC_URL: `127.0.0.1:${ports.campaignsGrpc}`,
    },
    ports.adminHttp,
  );
  await ready(
    'gateway',
    ['services/gateway/dist/main.js'],
    {
      ...shared,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(ports.gateway),
      IDENTITY_GRPC_URL: identityUrl,
      SUBMISSIONS_GRPC_URL: `127.0.0.1:${ports.submissionsGrpc}`,
      ADMIN_GRPC_URL: `127.0.0.1:${ports.adminGrpc}`,
      CAMPAIGNS_GRPC_URL: `127.0.0.1:${ports.campaignsGrpc}`,
    },
    ports.gateway,
  );
  const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;

  // One clipper (its handle is looked up for every row), and ROWS submissions of theirs, a minute apart,
  // written straight into submissions' table: the bench measures reading them.
  const handle = `bench_${randomBytes(3).toString('hex')}`;
  const signup = await fetch(`${gatewayUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `${handle}@example.com`,
      twitterHandle: handle,
      walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      role: 'clipper',
      password: 'bench-password',
    }),
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const userId = (await signup.json()).user.id;
  const db = new pg.Client({ connectionString: backend.databaseUrls.submissions });
  await db.connect();
  try {
    const t0 = performance.now();
    await db.query(
      `INSERT INTO submissions (id, user_id, name, url, platform, external_id, author_handle, wallet_address, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'Bench clip ' || i, 'https://x.com/' || $2 || '/status/' || (1000000000 + i), 'twitter', (1000000000 + i)::text, $2,
              '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', now() - i * interval '1 minute', now() - i * interval '1 minute'
       FROM generate_series(1, $3) AS i`,
      [userId, handle, ROWS],
    );
    await db.query('ANALYZE submissions');
    log(`seeded ${ROWS} submissions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await db.end();
  }

  const verify = await fetch(`${gatewayUrl}/api/admin/verify-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  });
  if (verify.status !== 200) throw new Error(`verify-password answered ${verify.status}: ${await verify.text()}`);
  const headers = { authorization: `Bearer ${(await verify.json()).token}` };

  // Walk every page as the admin remote's Load more would, keeping the cursor of the last one.
  const walk0 = performance.now();
  let cursor;
  let lastCursor;
  let seen = 0;
  let pages = 0;
  do {
    const res = await fetch(`${gatewayUrl}/api/admin/submissions?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers,
    });
    if (res.status !== 200) throw new Error(`page ${pages + 1} answered ${res.status}: ${await res.text()}`);
    const page = await res.json();
    if (page.total !== ROWS) throw new Error(`total ${page.total}, expected ${ROWS}`);
    seen += page.submissions.length;
    pages += 1;
    if (page.nextCursor) lastCursor = page.nextCursor;
    cursor = page.nextCursor;
  } while (cursor);
  const walkSeconds = (performance.now() - walk0) / 1000;
  if (seen !== ROWS) throw new Error(`walked ${seen} submissions, expected ${ROWS}`);
  log(
    `walked all ${pages} pages of ${PAGE} (${seen} submissions) one after another in ${walkSeconds.toFixed(1)} s (${((walkSeconds / pages) * 1000).toFixed(1)} ms a page)`,
  );

  log(`\nGET /api/admin/submissions?limit=${PAGE} over ${ROWS} submissions, ${CONNECTIONS} connections, ${DURATION} s each`);
  const first = await run(
    'first page (newest 50)',
    { url: `${gatewayUrl}/api/admin/submissions?limit=${PAGE}`, headers },
    FIRST_PAGE_FLOORS,
  );
  refuseBaseline('first page (newest 50)', [!(first.latency.p50 > 0) && `p50 of ${first.latency.p50} ms, nothing to divide by`]);
  const last = await run(`last page (after row ${ROWS - (ROWS % PAGE || PAGE)})`, {
    url: `${gatewayUrl}/api/admin/submissions?limit=${PAGE}&cursor=${encodeURIComponent(lastCursor)}`,
    headers,
  });
  log(
    `\nlast / first page: p50 ${(last.latency.p50 / first.latency.p50).toFixed(2)}x, throughput ${(last.requests.average / first.requests.average).toFixed(2)}x`,
  );
}

await runBench(main, async () => {
  await group.stop();
  await backend?.cleanup();
});

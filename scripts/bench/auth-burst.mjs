// `npm run bench:auth`: a burst of sign-ups and log-ins at production password hashing (issue 34, point 4;
// ADR 0044). Identity hashes through a bounded line (PASSWORD_HASH_CONCURRENCY at once) and refuses at once,
// with UNAVAILABLE and a retry-after, a call it could not hash within its budget or before its caller's
// deadline (less a margin); the gateway answers that as 503 with Retry-After and the text, and answers a
// sign-up or log-in identity did not answer within the deadline the same way. Before, 50 sign-ups at once on
// two cores outlasted the gateway's 5 s deadline (504s), because every scrypt queued without bound on
// libuv's pool.
//
// It starts identity and the gateway as real processes on an isolated backend (isolation.mjs), identity at
// its default PASSWORD_HASH_COST (15, production's; AUTH_BENCH_HASH_COST overrides it), signs up
// AUTH_BENCH_LOGINS (500) accounts beforehand (two at a time, waiting out any 503 as the web apps do), then
// fires AUTH_BENCH_SIGNUPS (200) sign-ups of new accounts and AUTH_BENCH_LOGINS log-ins of those accounts all
// at once, interleaved. It prints the burst's throughput, p50 and p99 (all answers, and the 2xx and the 503s
// apart), the 2xx and the 503 refusals per kind with the Retry-After told, and every answer that broke the
// contract: its kind, status, content type, Retry-After and the first 200 characters of its body (each
// distinct one once, with its count). Then (AUTH_BENCH_RETRY, on by default) the refused ones are sent again
// after their Retry-After as the web apps do (BUSY_RETRY: at most 3 more times), and it prints how many got
// in, when the last did, what the ones refused again were told, and the retries that broke the contract.
//
// It exits non-zero when any request got no answer within AUTH_BENCH_TIMEOUT_MS (30000), any answer was a 5xx
// other than the designed 503 (with Retry-After, text/plain, identity's words), any other non-2xx came back
// (a 4xx here would be the bench's own mistake), or the accounts stored are not the ones the 2xx made.
// The gateway's per-address and per-handle limits would refuse the run (every request comes from one
// address); they are raised for this bench's gateway only (it says so).
//
//   npm run bench:auth     (it builds identity and the gateway first, tsc -b)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runBench } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { log } from './measure.mjs';
import { processGroup } from './processes.mjs';
import { pool, WALLET } from './seed.mjs';
import { gatewayApi, startServices } from './services.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const SIGNUPS = Number(env('AUTH_BENCH_SIGNUPS', '200'));
const LOGINS = Number(env('AUTH_BENCH_LOGINS', '500'));
const TIMEOUT_MS = Number(env('AUTH_BENCH_TIMEOUT_MS', '30000'));
const RETRY = env('AUTH_BENCH_RETRY', '1') !== '0';
const HASH_COST = process.env.AUTH_BENCH_HASH_COST;
const CONCURRENCY = process.env.AUTH_BENCH_HASH_CONCURRENCY;
/** As the web apps (libs/web-api BUSY_RETRY): at most 3 more tries, each after the Retry-After told. */
const RETRIES = 3;
const RAISED_LIMIT = '1000000';
const PASSWORD = 'bench-password-1';
/** identity's words for a busy refusal (field-rules busyText): 'Too many sign-ins right now; please try again in N seconds'. */
const BUSY_TEXT = /^Too many (sign-ins|sign-ups) right now; please try again in (\d+) seconds?$/;

const group = processGroup(root);
let backend;

const percentile = (sorted, q) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const ms = (v) => (Number.isNaN(v) ? '-' : `${v.toFixed(0)} ms`);
const handleOf = (prefix, i) => `${prefix}${i.toString(36)}`.slice(0, 15);

function signupBody(handle) {
  return {
    email: `${handle}@example.com`,
    twitterHandle: handle,
    walletAddress: WALLET,
    role: 'clipper',
    tokenLink: '',
    claimCode: '',
    password: PASSWORD,
  };
}

/**
 * One request, timed: answers {kind, status, ms, retryAfter, contentType, text} or {kind, error} when no
 * answer came (a network error, or none within TIMEOUT_MS).
 */
async function send(api, kind, path, body) {
  const started = performance.now();
  try {
    const res = await api(path, { method: 'POST', body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    return {
      kind,
      status: res.status,
      ms: performance.now() - started,
      retryAfter: res.headers.get('retry-after'),
      contentType: res.headers.get('content-type') ?? '',
      text,
    };
  } catch (err) {
    return {
      kind,
      error: err.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS} ms` : err.message,
      ms: performance.now() - started,
    };
  }
}

/** The first 200 characters of an answer's body, on one line, for the report. */
const bodyOf = (r) => JSON.stringify((r.text ?? '').slice(0, 200));

/**
 * Why an answer breaks the contract, or undefined: a 2xx, or the designed 503 (Retry-After, text/plain,
 * identity's words with the same seconds). A break names the answer: its kind, status and body (200 chars).
 */
function problemOf(r) {
  if (r.error) return `${r.kind}: no answer (${r.error})`;
  if (r.status >= 200 && r.status < 300) return undefined;
  const answer = `${r.kind}: ${r.status} ${r.contentType || '(no content type)'}, Retry-After ${r.retryAfter ?? '(none)'}, body ${bodyOf(r)}`;
  if (r.status !== 503) return answer;
  const words = BUSY_TEXT.exec(r.text);
  if (!/^\d+$/.test(r.retryAfter ?? '')) return `${answer} (a 503 without Retry-After)`;
  if (!r.contentType.startsWith('text/plain')) return `${answer} (a 503 not in text/plain)`;
  if (!words || words[2] !== r.retryAfter) return `${answer} (a 503 whose text is not the busy refusal with its Retry-After)`;
  return undefined;
}

/** Every answer that broke the contract, each distinct one once with how many times it came. */
function logProblems(label, problems) {
  const counts = new Map();
  for (const p of problems) counts.set(p, (counts.get(p) ?? 0) + 1);
  log(`${label}: ${problems.length}`);
  for (const [p, n] of counts) log(`  ${String(n).padStart(4)} × ${p}`);
}

const refused = (r) => r.status === 503 && problemOf(r) === undefined;
const ok = (r) => !r.error && r.status >= 200 && r.status < 300;

function report(label, results, wallMs) {
  const all = results.filter((r) => !r.error).map((r) => r.ms);
  const line = (name, rs) => {
    const sorted = Float64Array.from(rs.map((r) => r.ms)).sort();
    return `${name.padEnd(22)} ${String(rs.length).padStart(4)}   p50 ${ms(percentile(sorted, 0.5)).padStart(8)}   p99 ${ms(percentile(sorted, 0.99)).padStart(8)}`;
  };
  const answered = all.length;
  const oks = results.filter(ok);
  log(`\n${label}: ${results.length} requests at once, all answered in ${(wallMs / 1000).toFixed(2)} s`);
  log(
    `throughput: ${(answered / (wallMs / 1000)).toFixed(1)} answers/s, ${(oks.length / (wallMs / 1000)).toFixed(1)} sign-ups and log-ins done/s`,
  );
  log(
    line(
      'all answers',
      results.filter((r) => !r.error),
    ),
  );
  log(line('2xx', oks));
  log(line('503 (busy, refused)', results.filter(refused)));
  for (const kind of ['signup', 'login']) {
    const mine = results.filter((r) => r.kind === kind);
    const told = Int32Array.from(mine.filter(refused).map((r) => Number(r.retryAfter))).sort();
    log(
      `${kind.padEnd(7)} ${String(mine.length).padStart(4)}: ${String(mine.filter(ok).length).padStart(4)} 2xx, ${String(told.length).padStart(4)} × 503 with Retry-After` +
        (told.length ? ` (told ${told[0]} to ${told.at(-1)} s, median ${percentile(told, 0.5)} s)` : ''),
    );
  }
  const problems = results.map(problemOf).filter(Boolean);
  logProblems('answers that broke the contract (no answer, a 5xx but the designed 503, another non-2xx)', problems);
  return problems;
}

async function main() {
  backend = await isolatedBackend('authburst');
  const identityEnv = {
    ...(HASH_COST ? { PASSWORD_HASH_COST: HASH_COST } : {}),
    ...(CONCURRENCY ? { PASSWORD_HASH_CONCURRENCY: CONCURRENCY } : {}),
  };
  const limits = { RATE_LIMIT_MAX_PER_IP: RAISED_LIMIT, RATE_LIMIT_MAX_PER_HANDLE: RAISED_LIMIT };
  const { gatewayUrl } = await startServices(group, backend, ['identity'], { serviceEnv: { identity: identityEnv, gateway: limits } });
  log(`gateway rate limits raised for this bench only: RATE_LIMIT_MAX_PER_IP and RATE_LIMIT_MAX_PER_HANDLE = ${RAISED_LIMIT}`);
  log(
    `identity PASSWORD_HASH_COST=${HASH_COST ?? 'its default (15, production)'}, PASSWORD_HASH_CONCURRENCY=${CONCURRENCY ?? 'its default (the cores, at most UV_THREADPOOL_SIZE - 1)'}, PASSWORD_HASH_BUDGET_MS default (2500)`,
  );
  const api = gatewayApi(gatewayUrl);
  const run = randomBytes(3).toString('hex');

  // The accounts the log-ins use, made first, two at a time, each waiting out a busy 503 like the web apps.
  const began = performance.now();
  const accounts = Array.from({ length: LOGINS }, (_, i) => handleOf(`a${run}`, i));
  await pool(
    accounts.map((handle) => async () => {
      for (let attempt = 0; ; attempt += 1) {
        const r = await send(api, 'signup', '/api/auth/signup', signupBody(handle));
        if (r.status === 201) return;
        if (refused(r) && attempt < 20) await new Promise((resolve) => setTimeout(resolve, Number(r.retryAfter) * 1000));
        else throw new Error(`making account ${handle} answered ${problemOf(r) ?? r.status}`);
      }
    }),
    2,
  );
  log(`${LOGINS} accounts signed up beforehand in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  await new Promise((resolve) => setTimeout(resolve, 1000));

  // The burst: every sign-up and log-in at once, interleaved.
  const requests = [
    ...Array.from({ length: SIGNUPS }, (_, i) => ['signup', '/api/auth/signup', signupBody(handleOf(`n${run}`, i))]),
    ...accounts.map((handle) => ['login', '/api/auth/login', { twitterHandle: handle, password: PASSWORD }]),
  ];
  for (let i = requests.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [requests[i], requests[j]] = [requests[j], requests[i]];
  }
  const burstStarted = performance.now();
  const results = await Promise.all(requests.map(([kind, path, body]) => send(api, kind, path, body)));
  const problems = report(`burst of ${SIGNUPS} sign-ups and ${LOGINS} log-ins`, results, performance.now() - burstStarted);

  if (RETRY) {
    // As the web apps: each refused one again after its Retry-After, at most RETRIES more times.
    const retryStarted = performance.now();
    const retryProblems = [];
    const told = [];
    let lastIn = 0;
    let retried = 0;
    const finals = await Promise.all(
      results.map(async (first, i) => {
        let r = first;
        for (let attempt = 0; attempt < RETRIES && refused(r); attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, Number(r.retryAfter) * 1000));
          retried += 1;
          r = await send(api, requests[i][0], requests[i][1], requests[i][2]);
          retryProblems.push(...[problemOf(r)].filter(Boolean));
          if (refused(r)) told.push(Number(r.retryAfter));
          if (ok(r)) lastIn = Math.max(lastIn, performance.now() - retryStarted);
        }
        return r;
      }),
    );
    const stillRefused = finals.filter(refused).length;
    const toldSorted = Int32Array.from(told).sort();
    log(
      `\nwith the web apps' retries (after each Retry-After, at most ${RETRIES} more): ${retried} retries; ` +
        `${finals.filter(ok).length} of ${finals.length} done, the last ${(lastIn / 1000).toFixed(1)} s after the burst's answers; ${stillRefused} still refused after ${RETRIES} retries` +
        (told.length
          ? `; retries refused again: ${told.length}, told ${toldSorted[0]} to ${toldSorted.at(-1)} s, median ${percentile(toldSorted, 0.5)} s`
          : ''),
    );
    logProblems('retries that broke the contract', retryProblems);
    problems.push(...retryProblems);
    results.splice(0, results.length, ...finals);
  }

  // Every 2xx sign-up made exactly one account, and nothing else did.
  const db = new pg.Client({ connectionString: backend.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM users WHERE twitter_username LIKE $1`, [`n${run}%`]);
    const made = results.filter((r) => r.kind === 'signup' && ok(r)).length;
    log(`accounts stored from the burst's sign-ups: ${rows[0].n} (2xx answered: ${made})`);
    if (rows[0].n !== made) problems.push(`${rows[0].n} accounts stored for ${made} sign-ups answered 2xx`);
  } finally {
    await db.end();
  }
  if (problems.length > 0)
    throw new Error(`${problems.length} answers broke the contract (no answer, a 5xx other than the designed 503, or another non-2xx)`);
  log('every request answered: 2xx, or 503 with Retry-After and a text a person can read');
}

await runBench(main, async () => {
  await group.stop();
  await backend?.cleanup();
});

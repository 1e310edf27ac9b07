// `npm run bench:reset`: POST /api/auth/reset-password answers in the same time, within noise, whether or
// not an account matched (issue 31, point 1: "Its answer is the same, in status, words and time within
// noise, whether or not an account matched"). Identity hashes the new password and writes the request as
// asked, the same work for every request, and matches it to an account after the answer (ADR 0032); this
// measures that nothing of the match shows in the answer's time.
//
// It starts identity (mailing through libs/testing's SMTP server, in this process) and the gateway as real
// processes on an isolated backend (isolation.mjs: own database, stream names, Redis prefix, storage
// folder; removed at the end), signs one account up through the gateway and verifies its address by the
// mailed link, then sends, one request at a time and interleaved (each round the three cases in a rotated
// order, so drift and order fall on all alike), RESET_BENCH_N (200) requests of each case after
// RESET_BENCH_WARMUP (10) untimed rounds:
//   (a) matched:     the account's handle and e-mail address (verified: a reset link is mailed),
//   (b) unmatched:   a handle and an address no account has,
//   (c) wrong email: the account's handle with another address.
// Every answer must be 200 with the very same body text. Identity mails at most 5 links an hour to one
// account and then answers without mailing one; so that every matched request here takes the mailing path
// (the most work a match can cost), the account's earlier reset links are dated back two hours before each
// request, of every case alike and outside the timed span, once the previous request was matched and its
// mail sent (identity's mail loop runs every 50 ms here), so no request is timed while another one's match
// runs. The run checks afterwards that each matched request did mail a link (one stored link per matched
// request) and no other request did.
//
// Prints n, median, p95 and mean per case, and for (b) and (c) against (a) the difference of medians with a
// bootstrap 95 % interval and a Mann-Whitney U test; exits non-zero when a difference of medians exceeds
// max(2 ms, 10 % of the matched median), when an answer differs, or when the links stored are not as above.
//
// The gateway's limits on this route (RATE_LIMIT_MAX_PER_IP, RATE_LIMIT_MAX_PER_HANDLE: 30 and 10 per
// 900 s by default) would refuse the run, so they are raised for this bench's gateway only (it says so).
// Identity hashes at its default cost (production's) unless RESET_BENCH_HASH_COST sets PASSWORD_HASH_COST.
// Before matching moved after the answer, at the tests' cost (RESET_BENCH_HASH_COST=10, a hash of a few ms)
// the matched path's own work showed: a matched request took 2.7 to 4.1 ms longer than the others in a run
// on 2 cores, and the bench failed; run it at that cost to see the difference the design removes.
//
//   npm run bench:reset      (RESET_BENCH_N=200; it builds libs/testing, identity and the gateway first, tsc -b)
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { runBench } from './baseline.mjs';
import { isolatedBackend } from './isolation.mjs';
import { log } from './measure.mjs';
import { processGroup } from './processes.mjs';
import { WALLET } from './seed.mjs';
import { gatewayApi, startServices } from './services.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The mail server's built module alone (npm run bench:reset builds libs/testing first): @clipit/testing's
// entry point also carries its Jest helpers, which cannot load outside Jest.
const { startMailServer } = await import(pathToFileURL(join(root, 'libs/testing/dist/mail-server.js')).href);
const env = (name, def) => process.env[name] || def;
const N = Number(env('RESET_BENCH_N', '200'));
const WARMUP = Number(env('RESET_BENCH_WARMUP', '10'));
const HASH_COST = process.env.RESET_BENCH_HASH_COST;
/** Far above the requests of one run: the route's limits per IP and per handle, for this bench's gateway only. */
const RAISED_LIMIT = String(Math.max(100_000, 10 * 3 * (N + WARMUP)));
const BOOTSTRAP_RESAMPLES = 2000;

const group = processGroup(root);
let backend;
let mail;

const median = (sorted) =>
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
/** `q` of sorted numbers (nearest rank). */
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const mean = (values) => values.reduce((t, v) => t + v, 0) / values.length;
const sortedCopy = (values) => Float64Array.from(values).sort();

/** A seeded generator (mulberry32): the bootstrap's interval is the same for the same samples. */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 95 % percentile-bootstrap interval of median(x) - median(y). */
function bootstrapMedianDiff(x, y) {
  const random = seededRandom(31);
  const resample = (values) => sortedCopy(Array.from(values, () => values[Math.floor(random() * values.length)]));
  const diffs = sortedCopy(Array.from({ length: BOOTSTRAP_RESAMPLES }, () => median(resample(x)) - median(resample(y))));
  return [percentile(diffs, 0.025), percentile(diffs, 0.975)];
}

/** Φ(z), the standard normal distribution (Abramowitz and Stegun 7.1.26 for erf, |error| < 1.5e-7). */
function normalCdf(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Mann-Whitney U of x against y (ties ranked by their mean rank, normal approximation with the tie
 * correction): answers P(a value of x > one of y) and the two-sided p of "same distribution".
 */
function mannWhitney(x, y) {
  const all = [...x.map((v) => [v, 0]), ...y.map((v) => [v, 1])].sort((a, b) => a[0] - b[0]);
  const ranks = new Float64Array(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1][0] === all[i][0]) j += 1;
    for (let k = i; k <= j; k += 1) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const [n1, n2] = [x.length, y.length];
  const rankSum = all.reduce((sum, [, side], i) => (side === 0 ? sum + ranks[i] : sum), 0);
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = (u - (n1 * n2) / 2) / sd;
  return { superiority: u / (n1 * n2), z, p: 2 * (1 - normalCdf(Math.abs(z))) };
}

/** The three cases, each with the body it posts; the same new password, handles and addresses of the same lengths. */
function cases(handle, email) {
  const newPassword = 'bench-new-password';
  const other = `rb_${randomBytes(4).toString('hex')}`;
  return [
    { key: 'a', label: '(a) matched, verified', body: { twitterHandle: handle, email, newPassword } },
    { key: 'b', label: '(b) unmatched', body: { twitterHandle: other, email: `${other}@example.com`, newPassword } },
    { key: 'c', label: '(c) known handle, wrong email', body: { twitterHandle: handle, email: `${other}@example.com`, newPassword } },
  ];
}

async function signUpVerified(api) {
  const handle = `rb_${randomBytes(4).toString('hex')}`;
  const email = `${handle}@example.com`;
  const signup = await api('/api/auth/signup', {
    method: 'POST',
    body: {
      email,
      twitterHandle: handle,
      walletAddress: WALLET,
      role: 'clipper',
      tokenLink: '',
      claimCode: '',
      password: 'bench-password',
    },
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  await signup.arrayBuffer();
  // The link sign-up mailed: /verify-email#token=…
  const link = (await mail.waitFor(email, { timeoutMs: 30_000 })).links.find((l) => new URL(l).pathname === '/verify-email');
  if (!link) throw new Error(`the sign-up mail to ${email} has no /verify-email link`);
  const verified = await api('/api/auth/verify-email', { method: 'POST', body: { token: new URL(link).hash.replace(/^#token=/, '') } });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}: ${await verified.text()}`);
  await verified.arrayBuffer();
  return { handle, email };
}

async function main() {
  backend = await isolatedBackend('reset');
  mail = await startMailServer();
  const identityEnv = { ...mail.smtpEnv, MAIL_DELIVERY_INTERVAL_MS: 50, ...(HASH_COST ? { PASSWORD_HASH_COST: HASH_COST } : {}) };
  const limits = { RATE_LIMIT_MAX_PER_IP: RAISED_LIMIT, RATE_LIMIT_MAX_PER_HANDLE: RAISED_LIMIT };
  const { gatewayUrl } = await startServices(group, backend, ['identity'], { serviceEnv: { identity: identityEnv, gateway: limits } });
  log(
    `gateway rate limits raised for this bench only: RATE_LIMIT_MAX_PER_IP=${RAISED_LIMIT}, RATE_LIMIT_MAX_PER_HANDLE=${RAISED_LIMIT} (defaults 30 and 10 per window)`,
  );
  log(`identity PASSWORD_HASH_COST=${HASH_COST ?? 'its default (production)'}; mail over SMTP to a test server in this process`);

  const api = gatewayApi(gatewayUrl);
  const { handle, email } = await signUpVerified(api);
  const db = new pg.Client({ connectionString: backend.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT id, email_verified_at IS NOT NULL AS verified FROM users WHERE twitter_username = $1`, [
      handle,
    ]);
    if (!rows[0]?.verified) throw new Error(`the account ${handle} is not verified after its link was confirmed`);
    const userId = rows[0].id;
    const all = cases(handle, email);
    const times = Object.fromEntries(all.map((c) => [c.key, []]));
    let expected;

    // Until the requests so far are matched and their mail sent: nothing of theirs runs while one is timed.
    const settled = async () => {
      for (let waited = 0; ; waited += 5) {
        const { rows: left } = await db.query(
          `SELECT (SELECT count(*) FROM password_reset_requests WHERE processed_at IS NULL) + (SELECT count(*) FROM mail_queue WHERE sent_at IS NULL AND dropped_at IS NULL) AS n`,
        );
        if (Number(left[0].n) === 0) return;
        if (waited > 30_000) throw new Error('reset requests were not matched and mailed within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    const once = async (c) => {
      await settled();
      // Earlier links dated back past the hourly limit, before every request alike, outside the timed span.
      await db.query(
        `UPDATE password_reset_requests SET created_at = created_at - interval '2 hours' WHERE user_id = $1 AND created_at > now() - interval '90 minutes'`,
        [userId],
      );
      const started = performance.now();
      const res = await api('/api/auth/reset-password', { method: 'POST', body: c.body });
      const text = await res.text();
      const ms = performance.now() - started;
      expected ??= { status: 200, text };
      if (res.status !== expected.status || text !== expected.text)
        throw new Error(`${c.label} answered ${res.status} ${text}; expected ${expected.status} ${expected.text}`);
      return ms;
    };

    log(
      `\nPOST /api/auth/reset-password, one request at a time, ${WARMUP} untimed rounds, then ${N} rounds of (a), (b) and (c) in rotated order`,
    );
    const began = performance.now();
    for (let round = 0; round < WARMUP + N; round += 1) {
      for (let k = 0; k < all.length; k += 1) {
        const c = all[(round + k) % all.length];
        const ms = await once(c);
        if (round >= WARMUP) times[c.key].push(ms);
      }
    }
    log(
      `${3 * (WARMUP + N)} answers in ${((performance.now() - began) / 1000).toFixed(1)} s, every one ${expected.status} ${expected.text}`,
    );

    // Each matched request mailed a link (a stored link of the account's), no other request did.
    await settled();
    const stored = await db.query(
      `SELECT count(*) FILTER (WHERE user_id = $1 AND token_hash IS NOT NULL)::int AS linked, count(*) FILTER (WHERE user_id IS NULL)::int AS unlinked FROM password_reset_requests`,
      [userId],
    );
    const { linked, unlinked } = stored.rows[0];
    const [wantLinked, wantUnlinked] = [WARMUP + N, 2 * (WARMUP + N)];
    log(`stored reset requests: ${linked} with a mailed link (expected ${wantLinked}), ${unlinked} without (expected ${wantUnlinked})`);
    if (linked !== wantLinked || unlinked !== wantUnlinked)
      throw new Error('the reset requests stored are not one link per matched request and none for the others');

    log(`\n${'case'.padEnd(32)} ${'n'.padStart(4)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'mean'.padStart(9)}`);
    const sorted = Object.fromEntries(all.map((c) => [c.key, sortedCopy(times[c.key])]));
    for (const c of all) {
      const s = sorted[c.key];
      log(
        `${c.label.padEnd(32)} ${String(s.length).padStart(4)} ${median(s).toFixed(2).padStart(6)} ms ${percentile(s, 0.95).toFixed(2).padStart(6)} ms ${mean(times[c.key]).toFixed(2).padStart(6)} ms`,
      );
    }

    const matchedMedian = median(sorted.a);
    const allowed = Math.max(2, 0.1 * matchedMedian);
    log(`\nallowed difference of medians: max(2 ms, 10 % of the matched median) = ${allowed.toFixed(2)} ms`);
    const over = [];
    for (const c of all.filter((x) => x.key !== 'a')) {
      const diff = matchedMedian - median(sorted[c.key]);
      const [low, high] = bootstrapMedianDiff(times.a, times[c.key]);
      const mw = mannWhitney(times.a, times[c.key]);
      const ok = Math.abs(diff) <= allowed;
      log(
        `(a) - ${c.label.slice(0, 3)}: median ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} ms (bootstrap 95 % ${low.toFixed(2)} to ${high.toFixed(2)} ms), ` +
          `Mann-Whitney P(a > ${c.key}) = ${mw.superiority.toFixed(3)}, z = ${mw.z.toFixed(2)}, p = ${mw.p.toFixed(3)}: ${ok ? 'within' : 'OVER'} ${allowed.toFixed(2)} ms`,
      );
      if (!ok) over.push(`(a) - ${c.label} = ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} ms`);
    }
    if (over.length > 0)
      throw new Error(`the matched median differs from another case's by more than ${allowed.toFixed(2)} ms: ${over.join('; ')}`);
    log('the answer is the same, in status, words and time within noise, whether or not an account matched');
  } finally {
    await db.end();
  }
}

await runBench(main, async () => {
  await group.stop();
  await mail?.close();
  await backend?.cleanup();
});

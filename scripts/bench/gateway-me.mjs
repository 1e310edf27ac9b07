// Benchmark of the hot path: GET /api/user/me with a session cookie (cookie → the gateway's session
// cache, which asks identity once per GATEWAY_SESSION_CACHE_TTL_MS → JSON), against a bare node:http
// server answering the very same bytes. Both run as their own processes; autocannon drives each with the
// same settings from this process. Besides req/s and latency it prints the CPU each request cost each
// process (from /proc), which other load on the machine changes far less than req/s. A bare server
// that answers anything but 2xx, errors, or runs under 1,000 req/s or over 1 s at p99 gets no ratio
// ("baseline broken: …", exit 1; baseline.mjs).
// GATEWAY_SESSION_CACHE_TTL_MS=0 npm run bench measures the gateway without the cache.
//
//   npm run bench            (BENCH_CONNECTIONS=100 BENCH_DURATION=10 BENCH_LOG_LEVEL=info by default)
//   BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench   (profile the gateway)
//   BENCH_IDENTITY_NODE_ARGS=... likewise for identity
//
// It builds identity and the gateway (tsc -b, incremental), creates its own Postgres database, JetStream
// stream names, Redis key prefix and storage folder, and removes all of them when it ends.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identityEnv, isolatedBackend } from './isolation.mjs';
import { runBench, HTTP_STATIC_FLOORS } from './baseline.mjs';
import { benchNodeArgs, cpuMs, freePort, processGroup, waitReady } from './processes.mjs';
import { log, measure } from './measure.mjs';
import { SAME_ENCODING, sampleAnswer, startBareServer } from './services.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name, def) => process.env[name] || def;
const CONNECTIONS = Number(env('BENCH_CONNECTIONS', '100'));
const DURATION = Number(env('BENCH_DURATION', '10'));
const LOG_LEVEL = env('BENCH_LOG_LEVEL', 'info');

const group = processGroup(root);
const start = (label, args, extraEnv) => group.start(label, args, extraEnv);
const stopChildren = () => group.stop();
/** The isolated database, streams, Redis prefix and storage folder, once made. */
let backend;

const run = (label, opts, afterWarmUp, baseline) =>
  measure(label, opts, { connections: CONNECTIONS, duration: DURATION, warmConnections: 10, labelWidth: 26, afterWarmUp, baseline });

/**
 * Measures like `run`, and prints what each request cost the given processes in CPU: contention changes req/s more than it.
 * `baseline`: the floors of the run the ratio divides by (measure refuses it below them).
 */
async function runWithCpu(label, opts, processes, baseline) {
  let before = [];
  const result = await run(label, opts, () => (before = processes.map(([, child]) => cpuMs(child))), baseline);
  const costs = processes.map(([name, child], i) => {
    const after = cpuMs(child);
    return after === undefined || before[i] === undefined
      ? undefined
      : `${name} ${(((after - before[i]) * 1000) / result.requests.total).toFixed(0)} µs`;
  });
  if (costs.every(Boolean)) log(`${''.padEnd(26)} CPU per request: ${costs.join(', ')}`);
  return result;
}

async function main() {
  log(`building identity and gateway (tsc -b) ...`);
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript-native/bin/tsc'), '-b', 'services/identity', 'services/gateway'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) throw new Error('build failed');

  // Own database, stream names, Redis prefix and storage folder.
  backend = await isolatedBackend('bench');

  const [grpcPort, identityHttpPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const shared = backend.env;

  const identity = start('identity', [...benchNodeArgs('identity'), 'services/identity/dist/main.js'], {
    ...shared,
    ...identityEnv(backend, { grpcPort, httpPort: identityHttpPort }),
    LOG_LEVEL: 'warn',
  });
  await waitReady(`http://127.0.0.1:${identityHttpPort}/health/ready`, 'identity', identity);

  const gateway = start('gateway', [...benchNodeArgs('gateway'), 'services/gateway/dist/main.js'], {
    ...shared,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    IDENTITY_GRPC_URL: `127.0.0.1:${grpcPort}`,
    LOG_LEVEL,
  });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${gatewayUrl}/health/ready`, 'gateway', gateway);

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
  await signup.arrayBuffer();
  const cookie = /clipit\.sid=[^;]+/.exec(signup.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error('sign-up set no session cookie');

  // The exact answer the bare server will repeat, as it crossed the wire to the load's request: same
  // status, headers and body bytes; both runs send the same headers (Accept-Encoding included).
  const headers = { cookie, ...SAME_ENCODING };
  const sample = await sampleAnswer(`${gatewayUrl}/api/user/me`, { headers });
  const body = sample.body;
  if (sample.status !== 200) throw new Error(`/api/user/me answered ${sample.status}: ${body}`);
  const { url: bareUrl, child: bare } = await startBareServer(group, 'bare', sample, headers);

  log(`\nGET /api/user/me, ${CONNECTIONS} connections, ${DURATION} s (gateway LOG_LEVEL=${LOG_LEVEL}, ${body.length}-byte body)`);
  const gatewayRps = (
    await runWithCpu('gateway (+identity, pg)', { url: `${gatewayUrl}/api/user/me`, headers }, [
      ['gateway', gateway],
      ['identity', identity],
    ])
  ).requests.average;
  const bareRps = (await runWithCpu('bare node:http', { url: `${bareUrl}/api/user/me`, headers }, [['bare', bare]], HTTP_STATIC_FLOORS))
    .requests.average;
  log(
    `\ngateway / bare = ${(gatewayRps / bareRps).toFixed(3)} (${((gatewayRps / bareRps) * 100).toFixed(1)}% of a server that does nothing)`,
  );
}

await runBench(main, async () => {
  await stopChildren();
  await backend?.cleanup();
});

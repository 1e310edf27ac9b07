// The platform's services as benchmark processes: each on free ports, on the isolated backend's database
// of its own, started in the order their calls need and waited for until ready. Benchmarks that drive the
// whole platform through the gateway start it with this, so each names only what it measures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { BaselineBroken, checkBareAnswer, decodeBody } from './baseline.mjs';
import { benchNodeArgs, freePort, waitReady } from './processes.mjs';

/** The services, in start order (a service starts after those it calls), with their variable prefix. */
const SERVICES = [
  { name: 'identity', prefix: 'IDENTITY' },
  { name: 'submissions', prefix: 'SUBMISSIONS', calls: ['identity'] },
  { name: 'campaigns', prefix: 'CAMPAIGNS' },
  { name: 'social', prefix: 'SOCIAL', calls: ['identity'] },
  { name: 'feed', prefix: 'FEED' },
  { name: 'admin', prefix: 'ADMIN', calls: ['identity', 'submissions', 'campaigns'] },
  { name: 'rewards', prefix: 'REWARDS', calls: ['identity'] },
  { name: 'developer', prefix: 'DEVELOPER' },
];

/**
 * Starts `names` (and the gateway in front of them) in `group` on `backend` (isolatedBackend with a
 * database per name: identity's is `databaseUrl`, the rest `databaseUrls[name]`). Answers the gateway's
 * URL, the admin password, and each child by name. `env` goes to every process; `serviceEnv[name]` to one.
 */
export async function startServices(group, backend, names, { env = {}, serviceEnv = {} } = {}) {
  const adminPassword = `bench-${randomBytes(6).toString('hex')}`;
  const grpc = {};
  const children = {};
  for (const service of SERVICES.filter((s) => names.includes(s.name))) {
    const [grpcPort, httpPort] = [await freePort(), await freePort()];
    grpc[service.name] = `127.0.0.1:${grpcPort}`;
    const p = service.prefix;
    const vars = {
      ...backend.env,
      LOG_LEVEL: 'warn',
      ...env,
      [`${p}_DATABASE_URL`]: service.name === 'identity' ? backend.databaseUrl : backend.databaseUrls[service.name],
      [`${p}_GRPC_PORT`]: String(grpcPort),
      [`${p}_HTTP_PORT`]: String(httpPort),
      [`${p}_BIND_HOST`]: '127.0.0.1',
      ...Object.fromEntries((service.calls ?? []).map((callee) => [`${callee.toUpperCase()}_GRPC_URL`, grpc[callee]])),
      ...(service.name === 'admin' ? { ADMIN_PASSWORD: adminPassword, ADMIN_TOKEN_SECRET: randomBytes(32).toString('hex') } : {}),
      ...serviceEnv[service.name],
    };
    const child = group.start(service.name, [...benchNodeArgs(service.name), `services/${service.name}/dist/main.js`], vars);
    await waitReady(`http://127.0.0.1:${httpPort}/health/ready`, service.name, child, 90_000);
    children[service.name] = child;
  }
  const gateway = await startGateway(group, backend, grpc, { ...env, ...serviceEnv.gateway });
  children.gateway = gateway.child;
  return { gatewayUrl: gateway.url, adminPassword, children, grpc };
}

/**
 * Starts a gateway (named `name` in `group`) in front of the services whose gRPC addresses `grpc` holds
 * by name (startServices answers them), with `env` over the defaults, and waits until it is ready.
 */
export async function startGateway(group, backend, grpc, env = {}, name = 'gateway') {
  const gatewayPort = await freePort();
  const child = group.start(name, [...benchNodeArgs('gateway'), 'services/gateway/dist/main.js'], {
    ...backend.env,
    LOG_LEVEL: 'warn',
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(gatewayPort),
    ...Object.fromEntries(Object.entries(grpc).map(([service, url]) => [`${service.toUpperCase()}_GRPC_URL`, url])),
    // Every account of a benchmark signs up from this one address.
    RATE_LIMIT_MAX_PER_IP: '100000',
    ...env,
  });
  const url = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${url}/health/ready`, name, child, 90_000);
  return { url, child };
}

/** A fetch to the gateway as its own pages send it (Origin set: the cross-site check), JSON bodies; `signal` to give up. */
export function gatewayApi(gatewayUrl) {
  const origin = new URL(gatewayUrl).origin;
  return (path, { method = 'GET', body, headers = {}, signal } = {}) =>
    fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
}

/** Resident memory of a child process in MB (from /proc); undefined where /proc is missing. */
export async function residentMb(child) {
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * The request headers both sides of a ratio get, sample included: the same Accept-Encoding, so the gateway
 * and the bare server answer the same representation (the plain bytes, as when autocannon sent none).
 */
export const SAME_ENCODING = { 'accept-encoding': 'identity' };

/**
 * The same bytes from a server that does nothing else (BARE_STATUS, BARE_HEADERS JSON, BARE_BODY base64 or,
 * for a body too big for the environment, BARE_BODY_FILE, BARE_PORT). Its Content-Length is always the length of what it sends: copied headers once described
 * other bytes (a compressed sample's) and the answers were misframed.
 */
export const BARE_SERVER = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const headers = JSON.parse(process.env.BARE_HEADERS);
const body = process.env.BARE_BODY_FILE ? readFileSync(process.env.BARE_BODY_FILE) : Buffer.from(process.env.BARE_BODY, 'base64');
delete headers['transfer-encoding'];
headers['content-length'] = String(body.length);
const status = Number(process.env.BARE_STATUS || 200);
createServer((req, res) => { req.resume(); res.writeHead(status, headers); res.end(body); }).listen(Number(process.env.BARE_PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;

/** Headers a bare server must not repeat: they describe one connection, or are set from its own body. */
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'];
const repeatable = (entries) =>
  Object.fromEntries(entries.filter(([name]) => !PER_CONNECTION.includes(name.toLowerCase())).map(([n, v]) => [n.toLowerCase(), v]));

/**
 * One answer of `url` as it came over the wire (node:http does not decode Content-Encoding): status,
 * repeatable headers and the body bytes exactly as sent. Ask with the headers the load will send.
 */
export function sampleAnswer(url, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: repeatable(Object.entries(res.headers)), body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A sample from a fetch answer and its body. fetch has already decoded the body, so Content-Encoding is
 * dropped with Content-Length: the plain bytes are what the gateway sends a load asking SAME_ENCODING.
 */
export function fetchedSample(res, body) {
  return { status: res.status, headers: repeatable([...res.headers].filter(([name]) => name !== 'content-encoding')), body };
}

/** The environment of BARE_SERVER for `sample`; throws when its Content-Encoding does not describe its body. */
export function bareServerEnv(port, sample) {
  try {
    decodeBody(sample.body, sample.headers['content-encoding']);
  } catch (err) {
    throw new BaselineBroken(
      `the sample's body is not what its Content-Encoding ${sample.headers['content-encoding']} says (${err.message})`,
    );
  }
  // The environment takes some 128 KB per variable: a bigger body (a creators tab) goes through a file.
  let body = { BARE_BODY: sample.body.toString('base64') };
  if (body.BARE_BODY.length > 64 * 1024) {
    const file = join(mkdtempSync(join(tmpdir(), 'clipit-bare-')), 'body');
    writeFileSync(file, sample.body);
    body = { BARE_BODY_FILE: file };
  }
  return { BARE_PORT: String(port), BARE_STATUS: String(sample.status), BARE_HEADERS: JSON.stringify(sample.headers), ...body };
}

/**
 * Starts BARE_SERVER (as `label` in `group`) repeating `sample`, and checks one answer on the wire: the
 * sample's very bytes, correctly framed, to a request with `headers` (the load's). Answers its url and child.
 */
export async function startBareServer(group, label, sample, headers = SAME_ENCODING) {
  const port = await freePort();
  const bareEnv = bareServerEnv(port, sample);
  const child = group.start(label, ['--input-type=module', '-e', BARE_SERVER], bareEnv);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/`, label, child);
  } finally {
    // Read once at start: the file is not needed any more.
    if (bareEnv.BARE_BODY_FILE) rmSync(dirname(bareEnv.BARE_BODY_FILE), { recursive: true, force: true });
  }
  await checkBareAnswer(label, `${url}/`, sample, headers);
  return { url, child };
}

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { freePorts } from '../ports.js';
import { ManagedProcess } from './managed-process.js';
import {
  startNatsCluster,
  startNatsServer,
  startPostgresServer,
  startRedisServer,
  type NatsCluster,
  type PrivateServer,
} from './servers.js';
import { XApiStandIn } from '../x-api-stand-in.js';
import { startMailServer, type MailServer } from '../mail-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../otlp-receiver.js';
import { TEST_PASSWORD_HASH_COST } from '../password-hash.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** One entry of deploy/launcher/services.mjs: the launcher's, compose's and the harness's one list of services. */
interface ServiceEntry {
  name: string;
  httpPortEnv: string;
  httpHostEnv?: string;
  portEnvs?: string[];
  databaseUrlEnv?: string;
}

/** The platform's services in start order, read from the launcher's list, so a service added later joins the fault suite by itself. */
export async function platformServices(): Promise<ServiceEntry[]> {
  const mod = (await import(pathToFileURL(join(ROOT, 'deploy/launcher/services.mjs')).href)) as { SERVICES: ServiceEntry[] };
  return mod.SERVICES;
}

export type Dependency = 'nats' | 'redis' | 'postgres';

/** The admin password of every fault platform's admin service. */
export const FAULT_ADMIN_PASSWORD = 'fault-suite-admin-password';

export interface FaultPlatformOptions {
  /**
   * Processes of every service (default 1). A caller's gRPC clients get every process of the service they
   * call (`ipv4:127.0.0.1:<a>,127.0.0.1:<b>`) and balance their calls over them (ADR 0054).
   */
  replicas?: number;
  /**
   * One nats-server (the default), or a 3-node JetStream cluster (ADR 0054): every process then gets NATS_URL
   * listing the three nodes and EVENTS_STREAM_REPLICAS=3, so one node can go away without an outage.
   */
  nats?: 'single' | 'cluster';
  /** Variables every service gets, after the harness's own (e.g. shorter timeouts for a test). */
  env?: Record<string, string>;
  /** Variables for one service's processes. */
  serviceEnv?: Record<string, Record<string, string>>;
  /**
   * Identity's password hash: production's cost (the default; a benchmark of the platform wants it), or the
   * test platforms' cheap one, for which identity alone runs with NODE_ENV=test (production refuses a cost
   * below 15). The fault suite's claims (nothing lost, doubled or stuck; clear refusals; readiness) do not
   * depend on the cost, which only weighs on the processor: at 15, identity's hashing was a quarter of the
   * fault suite's CPU. The cost itself is identity's tests' and `npm run bench:auth`'s to prove.
   */
  passwordHash?: 'production' | 'test';
}

/** What identity's processes get on a platform with the test platforms' cheap password hash. */
const TEST_HASH_ENV = { NODE_ENV: 'test', PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) };

export interface ServiceProcess {
  service: string;
  replica: number;
  process: ManagedProcess;
  httpUrl: string;
  env: Record<string, string>;
}

/**
 * The whole platform as real processes on private servers: its own PostgreSQL (one database per
 * service), NATS with JetStream (one server or a 3-node cluster) and Redis, each service started from
 * its build with the launcher's variables on free ports. Any part can be stopped, killed, paused and
 * started again in the middle of a journey; `close()` removes everything, and every process is killed
 * if the test process dies.
 */
export interface FaultPlatform {
  /** NATS_URL as every process has it: the single server's, or the cluster's nodes comma-separated. */
  natsUrl: string;
  /** The single NATS server (`nats: 'single'`); undefined on a cluster. */
  nats: PrivateServer | undefined;
  /** The JetStream cluster (`nats: 'cluster'`); undefined on a single server. */
  natsCluster: NatsCluster | undefined;
  redis: PrivateServer;
  postgres: PrivateServer;
  /** Every service process, in start order. */
  processes: ServiceProcess[];
  /** The public URLs of the gateway's processes. */
  gatewayUrls: string[];
  storageRoot: string;
  /** The SMTP relay identity mails through (a real server in the test's process). */
  mail: MailServer;
  /**
   * The collector every process exports its spans to (ADR 0054). The processes sample nothing of their own
   * (`parentbased_always_off`) and follow a caller's flag, so only the journeys a test flags
   * (`traces.flagTrace()`, its `traceparent` sent with the request) are recorded; `close()` fails when any
   * other span arrived.
   */
  traces: OtlpReceiver;
  /** A service's process (replica 0 unless named). */
  service(name: string, replica?: number): ServiceProcess;
  /** A private server; NATS only on a single-server platform (a cluster's nodes are in `natsCluster`). */
  dependency(name: Dependency): PrivateServer;
  /** The status of GET /health/ready of a process (0 when it does not answer). */
  readiness(name: string, replica?: number): Promise<number>;
  /** A query on a service's own database. */
  query<T = Record<string, unknown>>(service: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** A service's own database URL. */
  databaseUrl(service: string): string;
  /**
   * Stops every process (each sends its last spans as it exits) and removes everything; then throws when a
   * span arrived outside the flagged traces, or an export could not be read.
   */
  close(): Promise<void>;
}

export async function startFaultPlatform(options: FaultPlatformOptions = {}): Promise<FaultPlatform> {
  const replicas = options.replicas ?? 1;
  const clustered = options.nats === 'cluster';
  const services = await platformServices();
  for (const s of services) {
    if (!existsSync(join(ROOT, 'services', s.name, 'dist/main.js')))
      throw new Error(
        `services/${s.name}/dist/main.js is missing: build the services first (npm run tsc -- -b tsconfig.build.json; the fault suite's global setup does)`,
      );
  }
  const opened: Array<Pick<PrivateServer, 'close'>> = [];
  const standIns: { close(): Promise<void> }[] = [];
  const storageRoot = mkdtempSync(join(tmpdir(), 'clipit-fault-storage-'));
  const processes: ServiceProcess[] = [];
  const pools = new Map<string, pg.Pool>();
  const cleanup = async () => {
    for (const p of [...processes].reverse()) await p.process.stop().catch(() => undefined);
    for (const pool of pools.values()) await pool.end().catch(() => undefined);
    for (const s of opened) await s.close().catch(() => undefined);
    for (const s of standIns) await s.close().catch(() => undefined);
    rmSync(storageRoot, { recursive: true, force: true });
  };
  try {
    const [postgres, nats, redis] = await Promise.all([
      startPostgresServer(),
      clustered ? startNatsCluster(3) : startNatsServer(),
      startRedisServer(),
    ]);
    opened.push(postgres, nats, redis);
    const natsServer = 'process' in nats ? nats : undefined;
    const natsCluster = 'nodes' in nats ? nats : undefined;
    // X's API for the metrics worker (which refuses to start without a token): the stand-in, posts made up from their ids.
    const xApi = await new XApiStandIn({ generate: true }).start();
    standIns.push(xApi);
    // Production mode mails through SMTP (ADR 0031): the relay is a server of the test's.
    const mail = await startMailServer();
    standIns.push(mail);
    // The collector of the processes' spans, closed after them so their last exports still land.
    const traces = await startOtlpReceiver();
    standIns.push(traces);
    const admin = new pg.Client({ connectionString: `${postgres.url}/postgres` });
    await admin.connect();
    const databaseUrls = new Map<string, string>();
    for (const s of services.filter((x) => x.databaseUrlEnv)) {
      const db = `clipit_${s.name.replace(/-/g, '_')}`;
      await admin.query(`CREATE DATABASE "${db}"`);
      databaseUrls.set(s.name, `${postgres.url}/${db}`);
    }
    await admin.end();

    // Ports of every process first: every caller is given every replica of the callee.
    const ports = new Map<string, Record<string, number>>();
    for (const s of services) {
      for (let i = 0; i < replicas; i += 1) {
        const names = [s.httpPortEnv, ...(s.portEnvs ?? [])];
        const free = await freePorts(names.length);
        ports.set(`${s.name}#${i}`, Object.fromEntries(names.map((n, k) => [n, free[k]!])));
      }
    }
    const shared: Record<string, string> = {
      LOG_LEVEL: 'info',
      NATS_URL: nats.url,
      ...(clustered ? { EVENTS_STREAM_REPLICAS: '3' } : {}),
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'clipit:',
      EVENTS_STREAM: 'CLIPIT_EVENTS',
      EVENTS_SUBJECT_PREFIX: 'events',
      STORAGE_DRIVER: 'fs',
      STORAGE_FS_ROOT: storageRoot,
      MEDIA_PUBLIC_BASE_URL: '/media',
      NODE_ENV: 'production',
      // Production mode refuses the development admin password and token key.
      ADMIN_PASSWORD: FAULT_ADMIN_PASSWORD,
      ADMIN_TOKEN_SECRET: randomBytes(32).toString('hex'),
      // ...and the development webhook sealing key (developer and the webhook worker share this one).
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      X_API_BASE_URL: xApi.url,
      X_API_BEARER_TOKEN: xApi.bearerToken,
      ...mail.smtpEnv,
      // Tracing on in every process, as in production, but recording only the journeys a test flags: the
      // entries are services/<name>/dist/main.js, so the preload names each process after its folder.
      ...traces.env(200),
    };
    for (const s of services) {
      for (let i = 0; i < replicas; i += 1) {
        const env: Record<string, string> = { ...shared };
        // Every gRPC port of a service is offered to its callers as <NAME>_GRPC_URL: one replica's as host:port, as
        // on a laptop; several as one `ipv4:` target, over which the kit's clients balance each call (ADR 0054).
        for (const other of services) {
          for (const name of Object.keys(ports.get(`${other.name}#0`)!).filter((n) => n.endsWith('_GRPC_PORT'))) {
            const addresses = Array.from({ length: replicas }, (_, k) => `127.0.0.1:${ports.get(`${other.name}#${k}`)![name]}`);
            env[name.replace(/_PORT$/, '_URL')] = replicas > 1 ? `ipv4:${addresses.join(',')}` : addresses[0]!;
          }
        }
        for (const [name, port] of Object.entries(ports.get(`${s.name}#${i}`)!)) env[name] = String(port);
        if (s.httpHostEnv) env[s.httpHostEnv] = '127.0.0.1';
        if (s.databaseUrlEnv) env[s.databaseUrlEnv] = databaseUrls.get(s.name)!;
        // Admin samples the readiness of replica i of every service (ADR 0039), as the launcher lists them.
        if (s.name === 'admin') {
          env['ADMIN_HEALTH_TARGETS'] = services
            .map((other) => `${other.name}=http://127.0.0.1:${ports.get(`${other.name}#${i}`)![other.httpPortEnv]}`)
            .join(',');
        }
        Object.assign(
          env,
          options.env ?? {},
          s.name === 'identity' && options.passwordHash === 'test' ? TEST_HASH_ENV : {},
          options.serviceEnv?.[s.name] ?? {},
        );
        const httpUrl = `http://127.0.0.1:${env[s.httpPortEnv]}`;
        const proc = new ManagedProcess({
          name: replicas > 1 ? `${s.name}#${i + 1}` : s.name,
          command: process.execPath,
          // The tracing preload first, as the launcher's NODE_OPTIONS gives it (ADR 0054); it resolves from ROOT.
          args: ['--import', '@clipit/telemetry/register', join(ROOT, 'services', s.name, 'dist/main.js')],
          cwd: ROOT,
          // Only what the service is given: none of the test runner's variables leak in, except where Node
          // keeps its compiled code (NODE_COMPILE_CACHE, set by `npm test`): a restarted service loads faster.
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: process.env['HOME'] ?? tmpdir(),
            ...(process.env['NODE_COMPILE_CACHE'] ? { NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] } : {}),
            ...env,
          },
          // Not ready says why (the checks' answers), for the error of a start that times out.
          ready: async () => {
            const res = await fetch(`${httpUrl}/health/ready`, { signal: AbortSignal.timeout(2000) });
            if (res.status === 200) return true;
            throw new Error(`readiness ${res.status} ${await res.text()}`);
          },
          readyTimeoutMs: 60_000,
        });
        processes.push({ service: s.name, replica: i, process: proc, httpUrl, env });
      }
    }
    // All at once: nothing orders them (a caller's gRPC client connects when the callee listens, and every
    // service makes the event streams if they are missing); a process whose readiness needs another simply
    // becomes ready after it.
    await Promise.all(processes.map((p) => p.process.start()));

    const databaseUrl = (service: string) => {
      const url = databaseUrls.get(service);
      if (!url) throw new Error(`${service} has no database`);
      return url;
    };
    const find = (name: string, replica = 0) => {
      const found = processes.find((p) => p.service === name && p.replica === replica);
      if (!found) throw new Error(`no process ${name}#${replica}`);
      return found;
    };
    return {
      natsUrl: nats.url,
      nats: natsServer,
      natsCluster,
      redis,
      postgres,
      processes,
      gatewayUrls: processes.filter((p) => p.service === 'gateway').map((p) => p.httpUrl),
      storageRoot,
      mail,
      traces,
      service: find,
      dependency(name) {
        if (name !== 'nats') return { redis, postgres }[name];
        if (!natsServer) throw new Error('NATS is a cluster on this platform: take its nodes from natsCluster');
        return natsServer;
      },
      async readiness(name, replica = 0) {
        try {
          return (await fetch(`${find(name, replica).httpUrl}/health/ready`, { signal: AbortSignal.timeout(3000) })).status;
        } catch {
          return 0;
        }
      },
      databaseUrl,
      async query<T>(service: string, sql: string, params: unknown[] = []) {
        let pool = pools.get(service);
        if (!pool) {
          pool = new pg.Pool({ connectionString: databaseUrl(service), max: 2, connectionTimeoutMillis: 5000 });
          pool.on('error', () => undefined); // the server may be killed under it
          pools.set(service, pool);
        }
        return (await pool.query(sql, params)).rows as T[];
      },
      async close() {
        await cleanup();
        traces.expectOnlyFlaggedTraces();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

import { z } from 'zod';
import { CONSUMER_DEFAULTS } from '../bus/budgets.js';
import { GRPC_TARGET_FORMS, isGrpcTarget } from '../grpc/target.js';

/** Thrown at boot when a variable is missing or bad; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}\nSee deploy/.env.example for every variable and its default.`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads a typed configuration from environment variables: one zod object whose keys are the
 * variable names. Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    input[key] = value === undefined || value.trim() === '' ? undefined : value.trim();
  }
  const result = z.object(shape).safeParse(input);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const raw = input[name];
        return raw === undefined ? `${name} is missing: ${issue.message}` : `${name}=${JSON.stringify(raw)} is invalid: ${issue.message}`;
      });
  problems.push(...unpairedVariables(shape, input));
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/**
 * Variables that mean nothing alone: when the key is set, the variable named must be set too, or
 * start-up stops (a half-configured Sentinel setup would otherwise run against REDIS_URL's host unnoticed).
 */
const NEEDS: Readonly<Record<string, { variable: string; why: string }>> = {
  REDIS_SENTINELS: { variable: 'REDIS_SENTINEL_MASTER', why: 'Sentinel mode needs both' },
  REDIS_SENTINEL_MASTER: { variable: 'REDIS_SENTINELS', why: 'Sentinel mode needs both' },
  REDIS_SENTINEL_PASSWORD: { variable: 'REDIS_SENTINELS', why: 'it is only used to reach the sentinels' },
};

function unpairedVariables(shape: z.ZodRawShape, input: Record<string, string | undefined>): string[] {
  return Object.keys(shape).flatMap((name) => {
    const need = NEEDS[name];
    if (!need || input[name] === undefined || input[need.variable] !== undefined) return [];
    return [`${name} is set but ${need.variable} is not: ${need.why}`];
  });
}

/** A `host:port` list (commas between, spaces allowed around them), or undefined when an entry is not `host:port` with a port from 1 to 65535. */
export function parseHostPortList(text: string): Array<{ host: string; port: number }> | undefined {
  const entries = text.split(',').map((entry) => /^(?:\[([0-9A-Fa-f:.]+)\]|([\w.-]+)):(\d{1,5})$/.exec(entry.trim()));
  if (entries.some((m) => !m || Number(m[3]) < 1 || Number(m[3]) > 65535)) return undefined;
  return entries.map((m) => ({ host: (m![1] ?? m![2])!, port: Number(m![3]) }));
}

/** Reusable variable types. */
export const env = {
  port: (def: number) => z.coerce.number().int().min(1).max(65535).default(def),
  int: (def: number, min = 0) => z.coerce.number().int().min(min).default(def),
  bool: (def: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(def ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: (def: string, protocols: string[]) =>
    z
      .string()
      .default(def)
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol.replace(/:$/, ''));
          } catch {
            return false;
          }
        },
        `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      ),
  /** One URL, or several separated by commas: the servers of one cluster, any of which a client may connect to. */
  urlList: (def: string, protocols: string[]) =>
    z
      .string()
      .default(def)
      .refine(
        (v) =>
          v.split(',').every((part) => {
            try {
              return protocols.includes(new URL(part.trim()).protocol.replace(/:$/, ''));
            } catch {
              return false;
            }
          }),
        `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}, or a comma-separated list of them`,
      ),
  /** host:port. */
  hostPort: (def: string) =>
    z
      .string()
      .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
      .default(def),
  /** A gRPC client's target (`<NAME>_GRPC_URL`): host:port, dns:///<name>:<port> or ipv4:<ip>:<port>,<ip>:<port> (ADR 0054). */
  grpcTarget: (def: string) => z.string().default(def).refine(isGrpcTarget, `must be ${GRPC_TARGET_FORMS}`),
  /** `host:port,host:port,…`, or unset: a set of servers a client asks in turn (Redis sentinels); IPv6 in brackets. */
  hostPortList: () =>
    z
      .string()
      .optional()
      .refine((v) => v === undefined || parseHostPortList(v) !== undefined, 'must be host:port,host:port,… (ports 1 to 65535)'),
  /** The interface a server binds: 0.0.0.0 in containers, 127.0.0.1 for a laptop or tests. */
  bindHost: (def = '0.0.0.0') =>
    z
      .string()
      .regex(/^[\w.:-]+$/, 'must be a host name or address')
      .default(def),
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL; no trailing slash. */
  publicBaseUrl: (def: string) =>
    z
      .string()
      .default(def)
      .refine((v) => /^\/[\w./-]*$/.test(v) || /^https?:\/\/[^\s]+$/.test(v), 'must be a path starting with / or an http(s) URL')
      .transform((v) => v.replace(/\/+$/, '')),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Milliseconds, comma-separated and each at least `min` (a backoff schedule: 1000,5000,15000). */
  msList: (def: string, min = 1) =>
    z
      .string()
      .default(def)
      .refine(
        (v) => v.split(',').every((part) => /^\s*\d+\s*$/.test(part) && Number(part) >= min),
        `must be comma-separated whole milliseconds, each at least ${min}`,
      )
      .transform((v) => v.split(',').map(Number)),
};

/** The variables every service reads. */
export const sharedConfigShape = {
  LOG_LEVEL: env.logLevel(),
  // A cluster's nodes as a comma list: the client connects to any and moves to another when one goes away.
  NATS_URL: env.urlList('nats://127.0.0.1:4222', ['nats', 'tls']),
  REDIS_URL: env.url('redis://127.0.0.1:6379', ['redis', 'rediss']),
  REDIS_KEY_PREFIX: z.string().default('clipit:'),
  // Redis behind Sentinel (redisConnectionOptions): the sentinels to ask, and the name of the master they watch.
  REDIS_SENTINELS: env.hostPortList(),
  REDIS_SENTINEL_MASTER: z.string().regex(/^\S+$/, 'must be the name the sentinels monitor the master under (no spaces)').optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .default('CLIPIT_EVENTS'),
  EVENTS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'dot-separated tokens')
    .default('events'),
  // Copies of the events stream and its dead-letter stream a JetStream cluster keeps (ADR 0054): 3 rides out a lost node.
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  // A gRPC server closes each client connection this old (its calls get the grace to finish), so clients
  // resolve their target again and balance over replicas added since (ADR 0054).
  GRPC_MAX_CONNECTION_AGE_MS: env.int(300_000, 1000),
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: env.int(30_000, 0),
  ...busBudgetShape(),
};

/**
 * The event bus's time budgets, read by every service with a consumer. They decide how an outage is
 * ridden out, so a "long" outage is one that outlasts them; the fault suite runs them scaled down
 * (libs/testing/src/faults/time-profile.ts), the real values in `npm run test:faults:long`.
 */
function busBudgetShape() {
  return {
    /** How long JetStream waits for an ack before delivering the event again (a crashed replica's events move on after it). */
    BUS_ACK_WAIT_MS: env.int(CONSUMER_DEFAULTS.ackWaitMs, 100),
    /** Delays before each retry of a handler that failed on its own (not an outage), by attempt; the last repeats. */
    BUS_RETRY_BACKOFF_MS: env.msList(CONSUMER_DEFAULTS.backoffMs.join(',')),
    /** Runs of a handler failing on its own before its event is dead-lettered. */
    BUS_MAX_ATTEMPTS: env.int(CONSUMER_DEFAULTS.maxAttempts, 1),
    /** The cap of the delay between retries of an event that met a database outage (never dead-lettered). */
    BUS_OUTAGE_BACKOFF_MAX_MS: env.int(Math.max(...CONSUMER_DEFAULTS.outageBackoffMs), 10),
  };
}

export type SharedConfig = z.infer<z.ZodObject<typeof sharedConfigShape>>;

import { availableParallelism } from 'node:os';
import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { z } from 'zod';
import { storageConfigShape } from '@clipit/storage';
import { DEFAULT_HASH_COST } from './domain/password.js';

/** Every variable identity reads, with a default that works on one machine. Validated once at boot. */
export const identityConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('IDENTITY', { grpcPort: 50051, httpPort: 8101 }),
  ...databaseConfigShape('IDENTITY', 'clipit_identity'),
  /** development (default) or production: production refuses a password hash cost below 15. */
  NODE_ENV: z.string().default('development'),
  /**
   * scrypt's cost as log2 of N (15: N = 32768, r 8, p 1). Raising it makes every new hash slower to
   * guess, and each older hash is made again at its owner's next log-in; below 15 only outside production
   * (the test platforms use 10, so their many sign-ups do not spend the machine on hashing).
   */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(DEFAULT_HASH_COST),
  /**
   * Password hashes run at once (ADR 0044): the rest wait in line or are refused with a Retry-After.
   * scrypt runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 unless set), which also serves file
   * and DNS work: by default the cores, leaving that pool at least one thread.
   */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(defaultHashConcurrency()),
  /**
   * The longest a log-in may take from arrival until its hash is done; one that would take longer is
   * refused at once (a sign-up or reset request past half of it). Well under the callers' deadline (the
   * gateway's is 5 s), which must also cover the database and the trip.
   */
  PASSWORD_HASH_BUDGET_MS: env.int(2500, 50),
  /**
   * What a hash leaves of its caller's time (the gRPC deadline, read per call) for the work after it: the
   * database and the answer's trip. A hash that would be done later than the caller's deadline less this
   * is refused at once, and one waiting in line is refused as soon as it could no longer make it (ADR 0044).
   */
  PASSWORD_HASH_DEADLINE_MARGIN_MS: env.int(1000, 0),
  SESSION_TTL_SECONDS: env.int(1_209_600, 60),
  SESSION_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  /** How long a profile image upload URL stays valid (at most 7 days: a presigned S3 URL's limit). */
  IMAGE_UPLOAD_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
  /** How often uploads that expired unused are removed with their bytes. */
  IMAGE_UPLOAD_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
  /**
   * The site as people open it, for the links identity mails (reset, verification). Configured, never
   * taken from a request: a link built from a request's Host could send the token to another site.
   */
  PUBLIC_SITE_URL: env.url('http://localhost:8080', ['https', 'http']).transform((v) => v.replace(/\/+$/, '')),
  /** outbox (default): each message logged and written to MAIL_OUTBOX_DIR, nothing sent; smtp: sent through SMTP_HOST. */
  MAIL_DRIVER: z.enum(['outbox', 'smtp']).default('outbox'),
  MAIL_FROM: z.string().min(3).default('CLIP IT <no-reply@clipit.local>'),
  MAIL_OUTBOX_DIR: z.string().min(1).default('.data/mail'),
  SMTP_HOST: z.string().default(''),
  SMTP_PORT: env.port(587),
  /** true: TLS from the first byte (465); false: STARTTLS when the relay offers it (587). */
  SMTP_SECURE: env.bool(false),
  SMTP_USER: z.string().default(''),
  SMTP_PASSWORD: z.string().default(''),
  /** How long the relay may take to connect, greet or answer before the message is tried again later. */
  SMTP_TIMEOUT_MS: env.int(10_000, 100),
  /** How often queued mail is handed to the sender (and a failed one tried again once its backoff ended). */
  MAIL_DELIVERY_INTERVAL_MS: env.int(1000, 50),
};

/** libuv's thread pool size for this process (UV_THREADPOOL_SIZE, read by libuv when the process starts). */
export function uvThreadPoolSize(source: NodeJS.ProcessEnv = process.env): number {
  const size = Number(source.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size >= 1 ? Math.min(size, 1024) : 4;
}

/** The cores, but at most one fewer than libuv's thread pool holds, and at least 1. */
export function defaultHashConcurrency(cores = availableParallelism(), poolSize = uvThreadPoolSize()): number {
  return Math.max(1, Math.min(cores, poolSize - 1));
}

export type IdentityConfig = ConfigOf<typeof identityConfigShape>;

export function loadIdentityConfig(source: NodeJS.ProcessEnv = process.env): IdentityConfig {
  return loadConfig(identityConfigShape, source);
}

/**
 * Why this configuration must not run, or undefined when it may: SMTP chosen with no relay named; in
 * production, a password hash too cheap to resist guessing, or mail that would reach nobody.
 */
export function configProblem(
  config: Pick<IdentityConfig, 'NODE_ENV' | 'PASSWORD_HASH_COST' | 'MAIL_DRIVER' | 'SMTP_HOST' | 'PASSWORD_HASH_CONCURRENCY'>,
  poolSize = uvThreadPoolSize(),
): string | undefined {
  if (config.MAIL_DRIVER === 'smtp' && !config.SMTP_HOST) return 'MAIL_DRIVER=smtp needs SMTP_HOST (the relay identity sends mail through)';
  // Hashes filling libuv's whole pool would stall every file and DNS call behind them.
  if (config.PASSWORD_HASH_CONCURRENCY >= poolSize)
    return `PASSWORD_HASH_CONCURRENCY must be below UV_THREADPOOL_SIZE (${poolSize}), which also serves file and DNS work: lower it, or raise UV_THREADPOOL_SIZE`;
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.PASSWORD_HASH_COST < DEFAULT_HASH_COST)
    return `PASSWORD_HASH_COST must be at least ${DEFAULT_HASH_COST} in production (it is ${config.PASSWORD_HASH_COST})`;
  // The development outbox writes reset links to a local folder: nobody would receive them.
  if (config.MAIL_DRIVER !== 'smtp') return 'MAIL_DRIVER must be smtp in production (the outbox driver only writes mail to a local folder)';
  return undefined;
}

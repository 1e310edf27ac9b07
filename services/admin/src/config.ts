import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { z } from 'zod';
import { parseHealthTargets } from './domain/system-metrics.js';

/** The password `deploy/.env.example` ships and `npm start` prints; refused in production (ADR 0020). */
export const DEVELOPMENT_ADMIN_PASSWORD = 'clipit-admin-dev';
/** The token key `deploy/.env.example` ships; refused in production. */
export const DEVELOPMENT_TOKEN_SECRET = 'clipit-admin-token-dev-secret-change-me';
export const PRODUCTION_PASSWORD_MIN_LENGTH = 12;
export const PRODUCTION_SECRET_MIN_LENGTH = 32;

/** Every service's HTTP server at its default port on one machine (`npm start`, deploy/.env.example). */
export const DEFAULT_HEALTH_TARGETS = [
  'identity=http://127.0.0.1:8101',
  'submissions=http://127.0.0.1:8102',
  'media-worker=http://127.0.0.1:8103',
  'admin=http://127.0.0.1:8104',
  'campaigns=http://127.0.0.1:8105',
  'social=http://127.0.0.1:8106',
  'feed=http://127.0.0.1:8107',
  'rewards=http://127.0.0.1:8108',
  'metrics-worker=http://127.0.0.1:8109',
  'gateway=http://127.0.0.1:8080',
].join(',');

/** Every variable admin reads, with a default that works on one machine. Validated once at boot. */
export const adminConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('ADMIN', { grpcPort: 50053, httpPort: 8104 }),
  ...databaseConfigShape('ADMIN', 'clipit_admin'),
  NODE_ENV: z.string().default('development'),
  /** The one shared admin password (spec 02 §6). */
  ADMIN_PASSWORD: z.string().min(1, 'must not be empty').default(DEVELOPMENT_ADMIN_PASSWORD),
  /** Signs the admin tokens (together with the password, so changing either ends every token). */
  ADMIN_TOKEN_SECRET: z.string().min(16, 'must be at least 16 characters').default(DEVELOPMENT_TOKEN_SECRET),
  ADMIN_TOKEN_TTL_SECONDS: env.int(3600, 1),
  /** verify-password attempts per client address and window, counted in Redis (shared by replicas). */
  ADMIN_LOGIN_MAX_PER_IP: env.int(10, 1),
  ADMIN_LOGIN_WINDOW_SECONDS: env.int(900, 1),
  SUBMISSIONS_GRPC_URL: env.grpcTarget('127.0.0.1:50052'),
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
  CAMPAIGNS_GRPC_URL: env.grpcTarget('127.0.0.1:50054'),
  /** rewards: the holds on earnings of flagged clips, and an admin's release or void (ADR 0050). */
  REWARDS_GRPC_URL: env.grpcTarget('127.0.0.1:50057'),
  /** How often the platform's health is sampled into system_metrics (ADR 0039); one replica samples each interval. */
  ADMIN_SYSTEM_METRICS_INTERVAL_MS: env.int(60_000, 100),
  /** The services whose /health/ready is sampled, as name=http://host:port (their HTTP servers), comma-separated. */
  ADMIN_HEALTH_TARGETS: z
    .string()
    .default(DEFAULT_HEALTH_TARGETS)
    .transform((text, ctx) => {
      try {
        return parseHealthTargets(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
};

export type AdminConfig = ConfigOf<typeof adminConfigShape>;

export function loadAdminConfig(source: NodeJS.ProcessEnv = process.env): AdminConfig {
  return loadConfig(adminConfigShape, source);
}

/**
 * Why this configuration must not run in production, or undefined when it may: the development
 * password or token key (published in the repository), or ones too short to resist guessing.
 */
export function productionConfigProblem(
  config: Pick<AdminConfig, 'NODE_ENV' | 'ADMIN_PASSWORD' | 'ADMIN_TOKEN_SECRET'>,
): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD) return 'ADMIN_PASSWORD is the development default; set a password of your own';
  if (config.ADMIN_PASSWORD.length < PRODUCTION_PASSWORD_MIN_LENGTH)
    return `ADMIN_PASSWORD must be at least ${PRODUCTION_PASSWORD_MIN_LENGTH} characters in production`;
  if (config.ADMIN_TOKEN_SECRET === DEVELOPMENT_TOKEN_SECRET) return 'ADMIN_TOKEN_SECRET is the development default; set a random secret';
  if (config.ADMIN_TOKEN_SECRET.length < PRODUCTION_SECRET_MIN_LENGTH)
    return `ADMIN_TOKEN_SECRET must be at least ${PRODUCTION_SECRET_MIN_LENGTH} characters in production`;
  return undefined;
}

import { DEVELOPMENT_WEBHOOK_SECRET_KEY } from '@clipit/contracts';
import {
  databaseConfigShape,
  env,
  isSealingKey,
  loadConfig,
  serverConfigShape,
  sharedConfigShape,
  type ConfigOf,
} from '@clipit/service-kit';
import { z } from 'zod';

/** Every variable developer reads, with a default that works on one machine. Validated once at boot. */
export const developerConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('DEVELOPER', { grpcPort: 50058, httpPort: 8110 }),
  ...databaseConfigShape('DEVELOPER', 'clipit_developer'),
  // production: the development webhook key and loopback endpoints are refused at start-up.
  NODE_ENV: z.string().default('development'),
  // Webhooks (ADR 0053). The key endpoints' signing secrets are sealed under (base64 of 32 bytes; the
  // webhook worker opens them with the same key); the development default is refused in production.
  WEBHOOK_SECRET_KEY: z.string().default(DEVELOPMENT_WEBHOOK_SECRET_KEY).refine(isSealingKey, 'must be the base64 of 32 random bytes'),
  // Lets an endpoint be on a loopback address over http (tests, local development); never in production.
  WEBHOOK_ALLOW_LOOPBACK: env.bool(false),
  // A failed delivery is tried again after the base, doubling each time, at most the maximum apart; an
  // endpoint failing for WEBHOOK_DISABLE_AFTER_MS (3 days) is disabled and its owner told.
  WEBHOOK_RETRY_BASE_MS: env.int(30_000, 10),
  WEBHOOK_RETRY_MAX_MS: env.int(6 * 3600_000, 10),
  WEBHOOK_DISABLE_AFTER_MS: env.int(3 * 86_400_000, 100),
  // How often due deliveries are looked for (besides at once after each event), and how long an attempt
  // may stay queued without an outcome before it is queued again (a lost job).
  WEBHOOK_DISPATCH_INTERVAL_MS: env.int(1000, 10),
  WEBHOOK_REQUEUE_AFTER_MS: env.int(120_000, 100),
};

export type DeveloperConfig = ConfigOf<typeof developerConfigShape>;

export function loadDeveloperConfig(source: NodeJS.ProcessEnv = process.env): DeveloperConfig {
  return loadConfig(developerConfigShape, source);
}

/** Why this configuration must not run in production: the published development key, or loopback endpoints. */
export function productionConfigProblem(
  config: Pick<DeveloperConfig, 'NODE_ENV' | 'WEBHOOK_SECRET_KEY' | 'WEBHOOK_ALLOW_LOOPBACK'>,
): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.WEBHOOK_SECRET_KEY === DEVELOPMENT_WEBHOOK_SECRET_KEY)
    return 'WEBHOOK_SECRET_KEY is the development default; set a random key';
  if (config.WEBHOOK_ALLOW_LOOPBACK) return 'WEBHOOK_ALLOW_LOOPBACK lets webhooks reach this machine; it is for tests only';
  return undefined;
}

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
  SESSION_TTL_SECONDS: env.int(1_209_600, 60),
  SESSION_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  /** How long a profile image upload URL stays valid (at most 7 days: a presigned S3 URL's limit). */
  IMAGE_UPLOAD_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
  /** How often uploads that expired unused are removed with their bytes. */
  IMAGE_UPLOAD_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
};

export type IdentityConfig = ConfigOf<typeof identityConfigShape>;

export function loadIdentityConfig(source: NodeJS.ProcessEnv = process.env): IdentityConfig {
  return loadConfig(identityConfigShape, source);
}

/** Why this configuration must not run in production, or undefined when it may: a password hash too cheap to resist guessing. */
export function productionConfigProblem(config: Pick<IdentityConfig, 'NODE_ENV' | 'PASSWORD_HASH_COST'>): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.PASSWORD_HASH_COST < DEFAULT_HASH_COST) return `PASSWORD_HASH_COST must be at least ${DEFAULT_HASH_COST} in production (it is ${config.PASSWORD_HASH_COST})`;
  return undefined;
}

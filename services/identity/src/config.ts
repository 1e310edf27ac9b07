import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { z } from 'zod';
import { storageConfigShape } from '@clipit/storage';

/** Every variable identity reads, with a default that works on one machine. Validated once at boot. */
export const identityConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('IDENTITY', { grpcPort: 50051, httpPort: 8101 }),
  ...databaseConfigShape('IDENTITY', 'clipit_identity'),
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

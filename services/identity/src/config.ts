import { env, loadConfig, sharedConfigShape } from '@clipit/service-kit';
import { storageConfigShape } from '@clipit/storage';
import { z } from 'zod';

/** Every variable identity reads, with a default that works on one machine. Validated once at boot. */
export const identityConfigShape = {
  ...sharedConfigShape,
  IDENTITY_DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/clipit_identity', ['postgres', 'postgresql']),
  IDENTITY_DB_POOL_SIZE: env.int(10, 1),
  IDENTITY_GRPC_PORT: env.port(50051),
  IDENTITY_HTTP_PORT: env.port(8101),
  /** Interface both servers bind; 0.0.0.0 in containers, 127.0.0.1 for a laptop or tests. */
  IDENTITY_BIND_HOST: env.bindHost(),
  SESSION_TTL_SECONDS: env.int(1_209_600, 60),
  SESSION_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  DB_MIGRATE_ON_BOOT: env.bool(true),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
};

export type IdentityConfig = z.infer<z.ZodObject<typeof identityConfigShape>>;
export type IdentityConfigVariable = keyof typeof identityConfigShape;

export function loadIdentityConfig(source: NodeJS.ProcessEnv = process.env): IdentityConfig {
  return loadConfig(identityConfigShape, source);
}

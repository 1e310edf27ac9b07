import { VIDEO_LIMITS } from '@clipit/field-rules';
import { env, loadConfig, sharedConfigShape } from '@clipit/service-kit';
import { storageConfigShape } from '@clipit/storage';
import { z } from 'zod';

/** Every variable submissions reads, with a default that works on one machine. Validated once at boot. */
export const submissionsConfigShape = {
  ...sharedConfigShape,
  SUBMISSIONS_DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/clipit_submissions', ['postgres', 'postgresql']),
  SUBMISSIONS_DB_POOL_SIZE: env.int(10, 1),
  SUBMISSIONS_GRPC_PORT: env.port(50052),
  SUBMISSIONS_HTTP_PORT: env.port(8102),
  /** Interface both servers bind; 0.0.0.0 in containers, 127.0.0.1 for a laptop or tests. */
  SUBMISSIONS_BIND_HOST: env.bindHost(),
  /** identity's gRPC address (streamer and token checks). */
  IDENTITY_GRPC_URL: env.hostPort('127.0.0.1:50051'),
  DB_MIGRATE_ON_BOOT: env.bool(true),
  /** How long an upload URL (presigned or the gateway's) stays valid. */
  UPLOAD_URL_TTL_SECONDS: env.int(3600, 60),
  /** How often uploads that were never finished are swept (their objects removed). */
  UPLOAD_SWEEP_INTERVAL_SECONDS: env.int(300, 1),
  /** Video submissions a user may make per UTC day (spec 01 §9). */
  DAILY_VIDEO_LIMIT: env.int(VIDEO_LIMITS.dailyVideoSubmissions, 1),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
};

export type SubmissionsConfig = z.infer<z.ZodObject<typeof submissionsConfigShape>>;
export type SubmissionsConfigVariable = keyof typeof submissionsConfigShape;

export function loadSubmissionsConfig(source: NodeJS.ProcessEnv = process.env): SubmissionsConfig {
  return loadConfig(submissionsConfigShape, source);
}

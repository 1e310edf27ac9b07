import { VIDEO_LIMITS } from '@clipit/field-rules';
import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { storageConfigShape } from '@clipit/storage';

/** Every variable submissions reads, with a default that works on one machine. Validated once at boot. */
export const submissionsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('SUBMISSIONS', { grpcPort: 50052, httpPort: 8102 }),
  ...databaseConfigShape('SUBMISSIONS', 'clipit_submissions'),
  /** identity's gRPC address (streamer and token checks). */
  IDENTITY_GRPC_URL: env.hostPort('127.0.0.1:50051'),
  /** How long an upload URL (presigned or the gateway's) stays valid. */
  UPLOAD_URL_TTL_SECONDS: env.int(3600, 60),
  /** How often uploads that were never finished are swept (their objects removed). */
  UPLOAD_SWEEP_INTERVAL_SECONDS: env.int(300, 1),
  /** Video submissions a user may make per UTC day (spec 01 §9). */
  DAILY_VIDEO_LIMIT: env.int(VIDEO_LIMITS.dailyVideoSubmissions, 1),
  /** How often videos stuck in processing are looked for and re-driven through the media queue (MediaReconcilerService). */
  MEDIA_RECONCILE_INTERVAL_SECONDS: env.int(60, 1),
  /**
   * A video still processing this long after finalize is re-driven: its job retried if it finished
   * without its verdict arriving, queued again if Redis lost it. Above the longest a job normally takes.
   */
  MEDIA_PROCESSING_STALE_SECONDS: env.int(600, 1),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
};

export type SubmissionsConfig = ConfigOf<typeof submissionsConfigShape>;

export function loadSubmissionsConfig(source: NodeJS.ProcessEnv = process.env): SubmissionsConfig {
  return loadConfig(submissionsConfigShape, source);
}

import { VIDEO_LIMITS } from '@clipit/field-rules';
import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { storageConfigShape } from '@clipit/storage';
import { z } from 'zod';
import type { MetricsRules } from './domain/post-metrics.js';

/** Every variable submissions reads, with a default that works on one machine. Validated once at boot. */
export const submissionsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('SUBMISSIONS', { grpcPort: 50052, httpPort: 8102 }),
  ...databaseConfigShape('SUBMISSIONS', 'clipit_submissions'),
  /** identity's gRPC address (streamer and token checks). */
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
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
  /** How often the metrics scheduler looks for approved posts whose metrics are due (ADR 0029). */
  METRICS_SCHEDULER_INTERVAL_SECONDS: env.int(60, 1),
  /** At most this many batches of 100 posts queued per scheduler round (the rest wait for the next round). */
  METRICS_SCHEDULER_MAX_BATCHES: env.int(20, 1),
  /** A post under 48 hours old is read every this many minutes: at most 60, fresh posts are read at least hourly. */
  METRICS_FRESH_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(60).default(30),
  /** Under 7 days old: every this many hours. */
  METRICS_WEEK_INTERVAL_HOURS: env.int(6, 1),
  /** Under 30 days old: every this many hours. */
  METRICS_MONTH_INTERVAL_HOURS: env.int(24, 1),
  /** Older: every this many days. */
  METRICS_OLD_INTERVAL_DAYS: env.int(7, 1),
  /** A queued post whose metrics never came back (a lost job) is queued again this long after. Above a job's retries and X's rate-limit waits. */
  METRICS_QUEUED_STALE_MINUTES: env.int(60, 1),
  /** Reads in a row that do not find a post (deleted, protected) after which it is no longer scheduled. */
  METRICS_MISSING_LIMIT: env.int(3, 1),
  /**
   * A clip whose view-risk score (ADR 0049) is at or above this is under review: flagged to moderators,
   * the clipper told why, and its snapshot says so (rewards holds its earnings from it).
   */
  RISK_HOLD_THRESHOLD: z.coerce.number().int().min(1).max(100).default(60),
  /** How long the platform's engagement norms (medians by size of clip, one SQL query) are reused before they are measured again. */
  RISK_NORMS_CACHE_SECONDS: env.int(300, 1),
  ...storageConfigShape,
  /** Where stored objects are served (by the gateway): a path such as /media or an absolute URL. */
  MEDIA_PUBLIC_BASE_URL: env.publicBaseUrl('/media'),
};

export type SubmissionsConfig = ConfigOf<typeof submissionsConfigShape>;

/** The schedule and miss limit applying X's answers follows, from the configuration. */
export function metricsRules(config: SubmissionsConfig): MetricsRules {
  return {
    schedule: {
      freshMinutes: config.METRICS_FRESH_INTERVAL_MINUTES,
      weekHours: config.METRICS_WEEK_INTERVAL_HOURS,
      monthHours: config.METRICS_MONTH_INTERVAL_HOURS,
      oldDays: config.METRICS_OLD_INTERVAL_DAYS,
    },
    missingLimit: config.METRICS_MISSING_LIMIT,
  };
}

export function loadSubmissionsConfig(source: NodeJS.ProcessEnv = process.env): SubmissionsConfig {
  return loadConfig(submissionsConfigShape, source);
}

import { z } from 'zod';
import { traceFields } from '../trace.js';

/**
 * The one job name on the metrics queue. The queue itself (name, Redis key rule, job options) is
 * @clipit/media-queue's `metrics` helpers; what a job carries is here, for producer and worker alike.
 */
export const REFRESH_METRICS_JOB = 'refresh-metrics';

/** X's post ids: decimal, at most 19 digits (64-bit snowflakes). */
export const xPostIdSchema = z.string().regex(/^\d{1,19}$/);

/** Most posts one job asks X for: the tweets lookup endpoint takes at most 100 ids per request. */
export const METRICS_BATCH_MAX = 100;

/**
 * A batch of approved submissions whose post metrics are due (the submissions service's scheduler
 * decides which). The job id is `batchId`, so a batch queued twice runs once (no ':' in it: BullMQ refuses custom ids with one).
 */
export const refreshMetricsJobSchema = z.object({
  batchId: z.string().regex(/^[\w.-]{1,128}$/),
  posts: z
    .array(z.object({ submissionId: z.uuid(), externalId: xPostIdSchema }))
    .min(1)
    .max(METRICS_BATCH_MAX),
  /** The producer's span (ADR 0054): absent for the scheduler's batches, which no traced request caused. */
  ...traceFields,
});
export type RefreshMetricsJob = z.infer<typeof refreshMetricsJobSchema>;

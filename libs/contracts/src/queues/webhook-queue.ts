import { z } from 'zod';
import { traceFields } from '../trace.js';

/**
 * The webhook queue (ADR 0053), which services/webhook-worker consumes and developer feeds: one job per
 * attempt at one delivery. developer holds the delivery log and decides every retry; the worker makes one
 * attempt and states its outcome (webhook.attempted). What a job carries is here, for both.
 */
export const WEBHOOK_QUEUE = 'webhook';
export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

/** The most bytes of a payload a delivery carries (the events' own data is far smaller). */
export const WEBHOOK_PAYLOAD_MAX_BYTES = 64 * 1024;

/** One attempt at one delivery. The job id is `<deliveryId>.<attempt>`, so an attempt queued twice runs once. */
export const webhookDeliveryJobSchema = z.object({
  deliveryId: z.uuid(),
  /** 1 for the first attempt; developer queues the next one when this one failed and its backoff has passed. */
  attempt: z.number().int().positive(),
  endpointId: z.uuid(),
  url: z.url({ protocol: /^https?$/ }).max(2048),
  /** `webhook-id`: the event's id, the same on every attempt and a redelivery, so receivers drop repeats. */
  messageId: z.string().regex(/^[\w.:-]{1,128}$/),
  /** The JSON body, exactly as it is signed and sent. */
  payload: z.string().min(2).max(WEBHOOK_PAYLOAD_MAX_BYTES),
  /**
   * The endpoint's signing secrets, each sealed (AES-256-GCM under WEBHOOK_SECRET_KEY): the current one, and
   * during a rotation's overlap the previous one too; the request carries a signature by each.
   */
  sealedSecrets: z.array(z.string().min(1).max(512)).min(1).max(2),
  /** The correlation id of the event that caused the delivery, carried into the worker's logs and its event. */
  correlationId: z
    .string()
    .regex(/^[\w.:-]{1,128}$/)
    .optional(),
  /** The producer's span (ADR 0054), written by the queue's add: the delivery joins the event's trace. */
  ...traceFields,
});
export type WebhookDeliveryJob = z.infer<typeof webhookDeliveryJobSchema>;

export const webhookDeliveryJobId = (deliveryId: string, attempt: number): string => `${deliveryId}.${attempt}`;

/**
 * One attempt per job: a job that fails (the worker died, its outcome could not be stated) runs again a few
 * times, and a receiver sees the same webhook-id again at most; the retries of a failed delivery are
 * developer's (30 s, doubling, at most 6 h apart, for 3 days), each its own job.
 */
export const WEBHOOK_DELIVERY_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 24 * 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
} as const;

/**
 * WEBHOOK_SECRET_KEY's development default (base64 of 32 bytes, published here): developer seals the
 * endpoints' secrets under the key, the worker opens them. Both refuse to start with it in production.
 */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = 'Y2xpcGl0LXdlYmhvb2stZGV2LWtleS1jaGFuZ2UtbWU=';

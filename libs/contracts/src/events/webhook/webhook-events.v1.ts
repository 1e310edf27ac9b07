import { z } from 'zod';

/**
 * webhook.attempted v1: webhook-worker made one attempt at one delivery (ADR 0053); stated once per attempt,
 * under an id derived from it. developer applies it to its delivery log and decides what comes next.
 */
export const webhookAttemptedV1 = z.object({
  deliveryId: z.uuid(),
  attempt: z.number().int().positive(),
  endpointId: z.uuid(),
  /** The receiver answered 2xx in time. */
  ok: z.boolean(),
  /** The receiver's status, or null when there was no answer (refused, timed out, address not allowed). */
  statusCode: z.number().int().min(100).max(599).nullable(),
  /** From the start of the request to the answer's status line, or to the failure. */
  latencyMs: z.number().int().nonnegative(),
  /** Why it failed without an answer, in words for the endpoint's owner; null when it answered. */
  error: z.string().max(500).nullable(),
  /** The first 1,024 characters of the answer's body. */
  responseExcerpt: z.string().max(1024),
  at: z.iso.datetime({ offset: true }),
  /** The version of the worker that made it. */
  version: z.string().min(1),
});
export type WebhookAttemptedV1 = z.infer<typeof webhookAttemptedV1>;

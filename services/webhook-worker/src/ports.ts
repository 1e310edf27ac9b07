import type { EventData, EventEnvelope } from '@clipit/contracts';
import type { EventSink as KitEventSink } from '@clipit/worker-kit';

/** One POST of a delivery: the payload exactly as signed, with its headers. */
export interface OutboundDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What one attempt came to, as webhook.attempted states it. */
export interface AttemptAnswer {
  /** The endpoint answered 2xx in time. */
  ok: boolean;
  /** The endpoint's status, or null when it gave none (no connection, timed out, address not allowed). */
  statusCode: number | null;
  /** From the start of the request to the answer's status line, or to the failure. */
  latencyMs: number;
  /** Why it failed, in words for the endpoint's owner; null when the endpoint answered (whatever its status). */
  error: string | null;
  /** The first 1,024 characters of the answer's body. */
  responseExcerpt: string;
}

/**
 * Sends one delivery (WebhookSender, through the address rules): every way an attempt can go is an answer;
 * it throws only when `signal` aborts it (the worker is shutting down: the job goes back to the queue).
 */
export interface DeliveryPoster {
  post(delivery: OutboundDelivery, signal: AbortSignal): Promise<AttemptAnswer>;
}

export type WebhookAttemptedEvent = EventEnvelope<'webhook.attempted', EventData<'webhook.attempted'>>;

/** Where facts go (the kit's EventPublisher): resolves once JetStream has stored the event. */
export type EventSink = KitEventSink<WebhookAttemptedEvent>;

/** How an attempt without a usable answer failed: the label of the attempt metrics. */
export type FailureKind = 'timeout' | 'address-refused' | 'dns' | 'connection' | 'tls' | 'protocol';

import { WEBHOOK_DELIVERY_JOB, webhookDeliveryJobId, webhookDeliveryJobSchema, type WebhookDeliveryJob } from '@clipit/contracts';
import { buildEventEnvelope, deterministicEventId } from '@clipit/service-kit';
import {
  decidedProgressSchema,
  InvalidJobError,
  keptEventSchema,
  KeptOutcome,
  parseJobData,
  type Decided,
  type KeptJob,
} from '@clipit/worker-kit';
import type { Logger } from 'pino';
import type { Webhook } from 'standardwebhooks';
import { openSigners, SecretDoesNotOpenError, signatureHeaders } from '../delivery/signing.js';
import type { AttemptAnswer, DeliveryPoster, EventSink, WebhookAttemptedEvent } from '../ports.js';

/** The user agent of every delivery: receivers can tell the platform's requests, and the version of their form. */
export const USER_AGENT = 'CLIP-IT-Webhooks/1';

type AttemptDecided = Decided<WebhookAttemptedEvent> & { event: WebhookAttemptedEvent };

const decidedSchema = decidedProgressSchema({ event: keptEventSchema(['webhook.attempted']) });

export interface WebhookDeliveryHandlerDeps {
  sender: DeliveryPoster;
  events: EventSink;
  /** WEBHOOK_SECRET_KEY: the key the endpoints' secrets are sealed under (developer seals, this worker opens). */
  sealingKey: Buffer;
  logger: Logger;
  /** This worker's version (SERVICE_INFO), stated in the event. */
  version: string;
  now?: () => Date;
}

/**
 * One webhook-delivery job: one attempt at one delivery (ADR 0053). The payload is signed with each of the
 * endpoint's secrets, POSTed once, and the outcome (2xx or not, the status, the latency, what went wrong in the
 * owner's words, the first 1,024 characters of the answer) is decided once and kept in the job before
 * webhook.attempted is published (the worker kit's KeptOutcome): a run after a crash or a NATS outage states
 * that very event again, under the same id, without calling the endpoint again.
 *
 * The endpoint failing is not the job failing: the job completes with ok=false and developer, which holds the
 * delivery log, schedules the next attempt as a job of its own. Only unusable job data or a sealed secret that
 * does not open under WEBHOOK_SECRET_KEY fails the job (InvalidJobError), stating nothing.
 */
export class WebhookDeliveryHandler {
  private readonly outcomes: KeptOutcome<WebhookAttemptedEvent, AttemptDecided>;
  private readonly now: () => Date;

  constructor(private readonly deps: WebhookDeliveryHandlerDeps) {
    this.outcomes = new KeptOutcome({ schema: decidedSchema, events: deps.events });
    this.now = deps.now ?? (() => new Date());
  }

  async process(job: KeptJob, signal: AbortSignal): Promise<WebhookAttemptedEvent> {
    const data = parseJobData(webhookDeliveryJobSchema, job, WEBHOOK_DELIVERY_JOB);
    const log = this.deps.logger.child({
      jobId: job.id,
      deliveryId: data.deliveryId,
      attempt: data.attempt,
      endpointId: data.endpointId,
      ...(data.correlationId ? { correlationId: data.correlationId } : {}),
    });
    const decided = await this.outcomes.decideOnce(
      job,
      async () => ({ event: await this.attempt(job, data, signal, log) }),
      (recorded) => log.info({ eventId: recorded.event.id }, 'attempt decided earlier: stating the same outcome again'),
    );
    await this.outcomes.publish(job, decided);
    return decided.event;
  }

  /**
   * For a job BullMQ failed without running it (its workers kept dying): states what an earlier run decided,
   * if anything (otherwise the endpoint's answer was never kept, and developer's reconciler queues the attempt again).
   */
  async finishRecorded(job: KeptJob): Promise<WebhookAttemptedEvent | undefined> {
    const recorded = this.outcomes.recorded(job.progress);
    if (!recorded) return undefined;
    await this.outcomes.publish(job, recorded);
    return recorded.event;
  }

  private async attempt(job: KeptJob, data: WebhookDeliveryJob, signal: AbortSignal, log: Logger): Promise<WebhookAttemptedEvent> {
    const signers = this.signers(job, data);
    const at = this.now();
    const answer = await this.deps.sender.post(
      {
        url: data.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          ...signatureHeaders(data.messageId, at, data.payload, signers),
        },
        body: data.payload,
      },
      signal,
    );
    if (answer.ok) log.debug({ statusCode: answer.statusCode, latencyMs: answer.latencyMs }, 'delivered');
    else log.info({ statusCode: answer.statusCode, latencyMs: answer.latencyMs, error: answer.error }, 'not delivered');
    return this.attemptedEvent(data, at, answer);
  }

  private signers(job: KeptJob, data: WebhookDeliveryJob): Webhook[] {
    try {
      return openSigners(this.deps.sealingKey, data.sealedSecrets);
    } catch (err) {
      if (err instanceof SecretDoesNotOpenError) throw new InvalidJobError(`job ${job.id} (delivery ${data.deliveryId}): ${err.message}`);
      throw err;
    }
  }

  private attemptedEvent(data: WebhookDeliveryJob, at: Date, answer: AttemptAnswer): WebhookAttemptedEvent {
    return buildEventEnvelope(
      'webhook.attempted',
      {
        deliveryId: data.deliveryId,
        attempt: data.attempt,
        endpointId: data.endpointId,
        ok: answer.ok,
        statusCode: answer.statusCode,
        latencyMs: answer.latencyMs,
        error: answer.error,
        responseExcerpt: answer.responseExcerpt,
        at: at.toISOString(),
        version: this.deps.version,
      },
      {
        // Derived from the attempt: a job run again (a crash after the decision, a NATS outage) states the same fact.
        id: deterministicEventId('webhook.attempted', webhookDeliveryJobId(data.deliveryId, data.attempt)),
        correlationId: data.correlationId ?? `webhook:${data.deliveryId}`,
        occurredAt: at,
      },
    );
  }
}

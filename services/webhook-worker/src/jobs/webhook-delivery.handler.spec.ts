import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { webhookDeliveryJobId, type WebhookDeliveryJob } from '@clipit/contracts';
import { deterministicEventId, sealSecret } from '@clipit/service-kit';
import { InvalidJobError, PublishFailedError, type KeptJob } from '@clipit/worker-kit';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { AttemptAnswer, DeliveryPoster, EventSink, OutboundDelivery, WebhookAttemptedEvent } from '../ports.js';
import { USER_AGENT, WebhookDeliveryHandler } from './webhook-delivery.handler.js';

// The handler with the endpoint and the bus faked: what it sends, what it states, and that an attempt is
// decided once and kept in the job. The real HTTP side is in test/integration.

const KEY = randomBytes(32);
const NOW = new Date('2026-12-01T10:00:00.000Z');
const secret = () => `whsec_${randomBytes(24).toString('base64')}`;

class FakeJob implements KeptJob {
  id: string;
  attemptsMade = 0;
  progress: unknown = 0;
  constructor(public data: unknown) {
    const d = data as Partial<WebhookDeliveryJob>;
    this.id = webhookDeliveryJobId(d.deliveryId ?? 'x', d.attempt ?? 1);
  }
  async updateProgress(value: object): Promise<void> {
    this.progress = value;
  }
}

/** The endpoint: answers from a script, records what it was sent. */
class FakeEndpoint implements DeliveryPoster {
  readonly sent: OutboundDelivery[] = [];
  constructor(private answer: AttemptAnswer | ((signal: AbortSignal) => Promise<AttemptAnswer>)) {}
  async post(delivery: OutboundDelivery, signal: AbortSignal): Promise<AttemptAnswer> {
    this.sent.push(delivery);
    return typeof this.answer === 'function' ? this.answer(signal) : this.answer;
  }
}

class RecordingSink implements EventSink {
  readonly published: WebhookAttemptedEvent[] = [];
  down = false;
  async publishEnvelope(envelope: WebhookAttemptedEvent): Promise<unknown> {
    if (this.down) throw new Error('nats: timeout');
    this.published.push(envelope);
    return {};
  }
}

const answered = (over: Partial<AttemptAnswer> = {}): AttemptAnswer => ({
  ok: true,
  statusCode: 200,
  latencyMs: 42,
  error: null,
  responseExcerpt: 'thanks',
  ...over,
});

function delivery(secrets: string[] = [secret()], over: Partial<WebhookDeliveryJob> = {}): WebhookDeliveryJob {
  return {
    deliveryId: randomUUID(),
    attempt: 1,
    endpointId: randomUUID(),
    url: 'https://hooks.example.com/clipit',
    messageId: `msg_${randomUUID()}`,
    payload: JSON.stringify({ type: 'submission.approved', data: { submissionId: randomUUID() } }),
    sealedSecrets: secrets.map((s) => sealSecret(KEY, s)),
    ...over,
  };
}

function handlerWith(endpoint: DeliveryPoster, sink = new RecordingSink()) {
  const handler = new WebhookDeliveryHandler({
    sender: endpoint,
    events: sink,
    sealingKey: KEY,
    logger: pino({ level: 'silent' }),
    version: '0.1.0',
    now: () => NOW,
  });
  return { handler, sink };
}

describe('WebhookDeliveryHandler', () => {
  const signal = new AbortController().signal;

  it('POSTs the payload as it is, signed, with the Standard Webhooks headers', async () => {
    const endpoint = new FakeEndpoint(answered());
    const s = secret();
    const data = delivery([s]);
    await handlerWith(endpoint).handler.process(new FakeJob(data), signal);
    expect(endpoint.sent).toHaveLength(1);
    const [sent] = endpoint.sent as [OutboundDelivery];
    expect(sent.url).toBe(data.url);
    expect(sent.body).toBe(data.payload);
    expect(sent.headers).toEqual({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': data.messageId,
      'webhook-timestamp': String(NOW.getTime() / 1000),
      'webhook-signature': new Webhook(s).sign(data.messageId, NOW, data.payload),
    });
  });

  it('signs with both secrets of a rotation, the current one first', async () => {
    const endpoint = new FakeEndpoint(answered());
    const [current, previous] = [secret(), secret()];
    const data = delivery([current, previous]);
    await handlerWith(endpoint).handler.process(new FakeJob(data), signal);
    expect(endpoint.sent[0]!.headers['webhook-signature']).toBe(
      `${new Webhook(current).sign(data.messageId, NOW, data.payload)} ${new Webhook(previous).sign(data.messageId, NOW, data.payload)}`,
    );
  });

  it('states webhook.attempted under an id derived from the attempt, and keeps it in the job first', async () => {
    const { handler, sink } = handlerWith(new FakeEndpoint(answered({ latencyMs: 87, responseExcerpt: '{"received":true}' })));
    const data = delivery(undefined, { attempt: 3, correlationId: 'corr-1' });
    const job = new FakeJob(data);
    const event = await handler.process(job, signal);
    expect(event).toMatchObject({
      id: deterministicEventId('webhook.attempted', webhookDeliveryJobId(data.deliveryId, 3)),
      type: 'webhook.attempted',
      source: 'webhook-worker',
      correlationId: 'corr-1',
      occurredAt: NOW.toISOString(),
      data: {
        deliveryId: data.deliveryId,
        attempt: 3,
        endpointId: data.endpointId,
        ok: true,
        statusCode: 200,
        latencyMs: 87,
        error: null,
        responseExcerpt: '{"received":true}',
        at: NOW.toISOString(),
        version: '0.1.0',
      },
    });
    expect(sink.published).toEqual([event]);
    expect(job.progress).toEqual({ stage: 'decided', event });
  });

  it("completes with ok=false when the endpoint fails: the endpoint's failure is not the job's", async () => {
    for (const answer of [
      answered({ ok: false, statusCode: 500, responseExcerpt: 'oops' }),
      answered({ ok: false, statusCode: null, error: 'The endpoint did not answer within 10 s', responseExcerpt: '' }),
      answered({
        ok: false,
        statusCode: null,
        error: "The endpoint's address is not allowed: 10.0.0.5 is a private address",
        responseExcerpt: '',
      }),
      answered({ ok: false, statusCode: 301, error: 'Redirects are not followed (301 to https://elsewhere.example.com/)' }),
    ]) {
      const { handler, sink } = handlerWith(new FakeEndpoint(answer));
      const event = await handler.process(new FakeJob(delivery()), signal);
      expect(event.data).toMatchObject({ ok: false, statusCode: answer.statusCode, error: answer.error });
      expect(sink.published).toEqual([event]);
    }
  });

  it('states the kept attempt again after a failed publication, without calling the endpoint again', async () => {
    const endpoint = new FakeEndpoint(answered());
    const sink = new RecordingSink();
    sink.down = true;
    const { handler } = handlerWith(endpoint, sink);
    const job = new FakeJob(delivery());
    await expect(handler.process(job, signal)).rejects.toBeInstanceOf(PublishFailedError);
    expect(job.progress).toMatchObject({ stage: 'decided', publishFailures: 1 });
    sink.down = false;
    const event = await handler.process(job, signal);
    expect(sink.published).toEqual([event]);
    expect(endpoint.sent).toHaveLength(1);
  });

  it('states the same event, with the same id, when the same job runs twice', async () => {
    const endpoint = new FakeEndpoint(answered());
    const { handler, sink } = handlerWith(endpoint);
    const job = new FakeJob(delivery());
    const first = await handler.process(job, signal);
    const second = await handler.process(job, signal);
    expect(second).toEqual(first);
    expect(sink.published.map((e) => e.id)).toEqual([first.id, first.id]);
    expect(endpoint.sent).toHaveLength(1);
    // A job BullMQ failed without running it states what was kept, and nothing when nothing was.
    expect(await handler.finishRecorded(job)).toEqual(first);
    expect(await handler.finishRecorded(new FakeJob(delivery()))).toBeUndefined();
  });

  it('refuses job data that is not a webhook-delivery job, stating nothing', async () => {
    const { handler, sink } = handlerWith(new FakeEndpoint(answered()));
    for (const bad of [
      { deliveryId: 'nope' },
      { ...delivery(), url: 'ftp://hooks.example.com/' },
      { ...delivery(), sealedSecrets: [] },
      { ...delivery(), attempt: 0 },
    ])
      await expect(handler.process(new FakeJob(bad), signal)).rejects.toBeInstanceOf(InvalidJobError);
    expect(sink.published).toEqual([]);
  });

  it('refuses a job whose secret does not open under the key, calling nothing and stating nothing', async () => {
    const endpoint = new FakeEndpoint(answered());
    const { handler, sink } = handlerWith(endpoint);
    const data = { ...delivery(), sealedSecrets: [sealSecret(KEY, secret()), sealSecret(randomBytes(32), secret())] };
    const job = new FakeJob(data);
    const err = await handler.process(job, signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidJobError);
    expect((err as Error).message).toMatch(/sealed secret 2 of 2 does not open under WEBHOOK_SECRET_KEY/);
    expect(endpoint.sent).toEqual([]);
    expect(sink.published).toEqual([]);
    expect(job.progress).toBe(0);
  });

  it('decides nothing when the worker shuts down mid-attempt (the job goes back to the queue)', async () => {
    const stop = new AbortController();
    const endpoint = new FakeEndpoint(async (s) => {
      stop.abort(new Error('shutting down'));
      throw s.reason;
    });
    const { handler, sink } = handlerWith(endpoint);
    const job = new FakeJob(delivery());
    await expect(handler.process(job, stop.signal)).rejects.toThrow('shutting down');
    expect(job.progress).toBe(0);
    expect(sink.published).toEqual([]);
  });
});

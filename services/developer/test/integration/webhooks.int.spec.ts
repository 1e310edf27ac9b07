import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DEVELOPMENT_WEBHOOK_SECRET_KEY,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_QUEUE,
  webhookDeliveryJobId,
  type WebhookDeliveryJob,
} from '@clipit/contracts';
import { WEBHOOK_MESSAGES, WEBHOOKS_PER_USER_MAX } from '@clipit/field-rules';
import { createJobQueue } from '@clipit/media-queue';
import { connectNats, EventPublisher, openSealedSecret, sealingKey, type NatsConnection } from '@clipit/service-kit';
import { submissionSnapshot, waitFor } from '@clipit/testing';
import { UnrecoverableError, Worker, type Queue } from 'bullmq';
import pg from 'pg';
import { ATTEMPT_NOT_MADE } from '../../src/services/webhook-dispatcher.service.js';
import { refusal, startDeveloper, type DeveloperHarness } from '../support/developer-harness.js';

// developer's webhooks against the real Postgres, NATS and Redis: endpoints, the deliveries it writes from
// the platform's events, the jobs it queues one attempt at a time per endpoint, and the outcomes it applies.
// The worker is played here by publishing its webhook.attempted events.

const RETRY_BASE_MS = 150;
const DISABLE_AFTER_MS = 1500;
const KEY = sealingKey(DEVELOPMENT_WEBHOOK_SECRET_KEY);

describe('developer: webhook endpoints and deliveries', () => {
  let h: DeveloperHarness;
  let db: pg.Client;
  let nc: NatsConnection;
  let publisher: EventPublisher;
  let queue: Queue<WebhookDeliveryJob>;

  beforeAll(async () => {
    h = await startDeveloper({
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_RETRY_MAX_MS: '400',
      WEBHOOK_DISABLE_AFTER_MS: String(DISABLE_AFTER_MS),
      WEBHOOK_DISPATCH_INTERVAL_MS: '100',
      WEBHOOK_REQUEUE_AFTER_MS: '700',
    });
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    nc = await connectNats(process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222', 'developer-webhooks-test');
    publisher = new EventPublisher({ nc, names: h.names });
    queue = createJobQueue<WebhookDeliveryJob, typeof WEBHOOK_DELIVERY_JOB>({
      queue: WEBHOOK_QUEUE,
      connection: { url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
      prefix: h.names.redisKeyPrefix,
    });
  });

  afterAll(async () => {
    await queue?.close();
    await nc?.close();
    await db?.end();
    await h?.stop();
  });

  const job = (deliveryId: string, attempt: number) =>
    waitFor(async () => (await queue.getJob(webhookDeliveryJobId(deliveryId, attempt)))?.data, 5000, `job ${deliveryId}.${attempt}`);
  const deliveriesOf = async (endpointId: string) =>
    (
      await db.query<{ id: string; status: string; attempts: number; message_id: string; event_type: string }>(
        'SELECT id, status, attempts, message_id, event_type FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY occurred_at, seq',
        [endpointId],
      )
    ).rows;
  const approved = async (userId: string) => {
    const { envelope } = await publisher.publish('submission.approved', {
      submission: submissionSnapshot({ id: randomUUID(), userId, status: 'approved', approvedAt: new Date().toISOString() }),
    });
    return envelope;
  };
  const attempted = (d: { deliveryId: string; endpointId: string; attempt: number }, ok: boolean, at = new Date()) =>
    publisher.publish('webhook.attempted', {
      ...d,
      ok,
      statusCode: ok ? 200 : 503,
      latencyMs: 12,
      error: null,
      responseExcerpt: ok ? 'thanks' : 'down for maintenance',
      at: at.toISOString(),
      version: '0.1.0',
    });
  const endpointFor = async (userId: string, events = ['submission.approved', 'payout.sent']) =>
    h.client.createEndpoint({ userId, url: `http://127.0.0.1:9/hooks/${randomUUID()}`, events });

  it('makes an endpoint with a secret told once and kept sealed, and refuses what the rules refuse', async () => {
    const userId = randomUUID();
    const created = await endpointFor(userId, ['payout.sent', 'submission.approved', 'payout.sent']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.endpoint).toMatchObject({ events: ['submission.approved', 'payout.sent'], pendingDeliveries: 0 });
    const { rows } = await db.query<{ sealed_secret: string }>('SELECT sealed_secret FROM webhook_endpoints WHERE id = $1', [
      created.endpoint!.id,
    ]);
    expect(rows[0]!.sealed_secret).not.toContain(created.secret.slice(6));
    expect(openSealedSecret(KEY, rows[0]!.sealed_secret)).toBe(created.secret);
    expect((await h.client.listEndpoints({ userId })).endpoints.map((e) => e.id)).toEqual([created.endpoint!.id]);

    expect(await refusal(h.client.createEndpoint({ userId, url: 'https://10.0.0.8/x', events: ['payout.sent'] }))).toEqual([
      status.INVALID_ARGUMENT,
      WEBHOOK_MESSAGES.urlPrivate,
    ]);
    expect(await refusal(h.client.createEndpoint({ userId, url: 'https://example.com/x', events: ['user.registered'] }))).toEqual([
      status.INVALID_ARGUMENT,
      WEBHOOK_MESSAGES.badEvent,
    ]);
    // Someone else's endpoint is not found, whatever is asked of it.
    const other = { userId: randomUUID(), endpointId: created.endpoint!.id };
    expect(await refusal(h.client.deleteEndpoint(other))).toEqual([status.NOT_FOUND, WEBHOOK_MESSAGES.endpointNotFound]);
    expect(await refusal(h.client.listDeliveries(other))).toEqual([status.NOT_FOUND, WEBHOOK_MESSAGES.endpointNotFound]);
  });

  it('holds a user to 10 endpoints, even made at once', async () => {
    const userId = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: WEBHOOKS_PER_USER_MAX + 3 }, () => endpointFor(userId)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(WEBHOOKS_PER_USER_MAX);
    expect(await refusal(endpointFor(userId))).toEqual([status.FAILED_PRECONDITION, WEBHOOK_MESSAGES.tooManyEndpoints]);
  });

  it("writes a delivery per subscribed endpoint of the event's owner, and queues its first attempt signed with the endpoint's secret", async () => {
    const userId = randomUUID();
    const subscribed = await endpointFor(userId);
    const payoutsOnly = await endpointFor(userId, ['payout.sent']);
    const strangers = await endpointFor(randomUUID());
    const event = await approved(userId);
    const [delivery] = await waitFor(async () => {
      const rows = await deliveriesOf(subscribed.endpoint!.id);
      return rows.length ? rows : undefined;
    });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, message_id: event.id, event_type: 'submission.approved' });
    expect(await deliveriesOf(payoutsOnly.endpoint!.id)).toEqual([]);
    expect(await deliveriesOf(strangers.endpoint!.id)).toEqual([]);

    const data = await job(delivery!.id, 1);
    expect(data).toMatchObject({ deliveryId: delivery!.id, attempt: 1, endpointId: subscribed.endpoint!.id, messageId: event.id });
    expect(data.sealedSecrets.map((s) => openSealedSecret(KEY, s))).toEqual([subscribed.secret]);
    const body = JSON.parse(data.payload) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(body).toEqual({
      type: 'submission.approved',
      timestamp: event.occurredAt,
      data: expect.objectContaining({ submissionId: (event.data as { submission: { id: string } }).submission.id, status: 'approved' }),
    });
    // The same event again (a redelivery of the bus) writes nothing more.
    await publisher.publishEnvelope(event);
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveriesOf(subscribed.endpoint!.id)).toHaveLength(1);
  });

  it("sends an endpoint's deliveries in order, one at a time, retrying a failed one after its backoff before the next", async () => {
    const userId = randomUUID();
    const { endpoint } = await endpointFor(userId);
    const first = await approved(userId);
    const second = await approved(userId);
    const rows = await waitFor(async () => {
      const r = await deliveriesOf(endpoint!.id);
      return r.length === 2 ? r : undefined;
    });
    expect(rows.map((r) => r.message_id)).toEqual([first.id, second.id]);
    const [head, next] = rows as [(typeof rows)[0], (typeof rows)[0]];
    await job(head.id, 1);
    // Only the head is queued while it is not delivered.
    await new Promise((r) => setTimeout(r, 300));
    expect(await queue.getJob(webhookDeliveryJobId(next.id, 1))).toBeUndefined();

    await attempted({ deliveryId: head.id, endpointId: endpoint!.id, attempt: 1 }, false);
    // The second attempt of the head after the backoff; still nothing for the next.
    await job(head.id, 2);
    expect(await queue.getJob(webhookDeliveryJobId(next.id, 1))).toBeUndefined();
    await attempted({ deliveryId: head.id, endpointId: endpoint!.id, attempt: 2 }, true);
    await job(next.id, 1);
    expect(await deliveriesOf(endpoint!.id)).toEqual([
      expect.objectContaining({ id: head.id, status: 'delivered', attempts: 2 }),
      expect.objectContaining({ id: next.id, status: 'pending', attempts: 0 }),
    ]);
    // An outcome told twice, or for an attempt not awaited, changes nothing.
    await attempted({ deliveryId: head.id, endpointId: endpoint!.id, attempt: 1 }, false);
    await attempted({ deliveryId: next.id, endpointId: endpoint!.id, attempt: 3 }, true);
    await new Promise((r) => setTimeout(r, 300));
    expect((await deliveriesOf(endpoint!.id)).map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 2],
      ['pending', 0],
    ]);

    const page = await h.client.listDeliveries({ userId, endpointId: endpoint!.id, limit: 1 });
    expect(page.deliveries).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = await h.client.listDeliveries({ userId, endpointId: endpoint!.id, limit: 1, cursor: page.nextCursor! });
    expect([...page.deliveries, ...rest.deliveries].map((d) => d.id).sort()).toEqual([head.id, next.id].sort());
    const delivered = [...page.deliveries, ...rest.deliveries].find((d) => d.id === head.id)!;
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, latencyMs: 12, responseExcerpt: 'thanks' });
  });

  it('disables an endpoint failing for longer than allowed, says why, and sends what waited once enabled', async () => {
    const userId = randomUUID();
    const { endpoint } = await endpointFor(userId);
    await approved(userId);
    const [head] = await waitFor(async () => {
      const r = await deliveriesOf(endpoint!.id);
      return r.length ? r : undefined;
    });
    const start = Date.now();
    let attempt = 1;
    // Fail every attempt, each told at its own time, until the endpoint has failed for DISABLE_AFTER_MS.
    for (;;) {
      await job(head!.id, attempt);
      await attempted({ deliveryId: head!.id, endpointId: endpoint!.id, attempt }, false);
      await waitFor(async () => ((await deliveriesOf(endpoint!.id))[0]!.attempts === attempt ? true : undefined));
      const [state] = (await h.client.listEndpoints({ userId })).endpoints;
      if (state?.disabledAt) break;
      if (Date.now() - start > DISABLE_AFTER_MS + 5000) throw new Error('never disabled');
      attempt += 1;
    }
    const [disabled] = (await h.client.listEndpoints({ userId })).endpoints;
    expect(disabled).toMatchObject({ failingSince: expect.any(String), pendingDeliveries: 1 });
    expect(disabled!.disabledReason).toMatch(/^Deliveries failed from .* on; the last one: it answered HTTP 503$/);
    // Nothing is queued for it while disabled.
    await new Promise((r) => setTimeout(r, 600));
    expect(await queue.getJob(webhookDeliveryJobId(head!.id, attempt + 1))).toBeUndefined();

    expect(await refusal(h.client.enableEndpoint({ userId: randomUUID(), endpointId: endpoint!.id }))).toEqual([
      status.NOT_FOUND,
      WEBHOOK_MESSAGES.endpointNotFound,
    ]);
    const enabled = await h.client.enableEndpoint({ userId, endpointId: endpoint!.id });
    expect(enabled.disabledAt).toBeUndefined();
    await job(head!.id, attempt + 1);
    expect(await refusal(h.client.enableEndpoint({ userId, endpointId: endpoint!.id }))).toEqual([
      status.FAILED_PRECONDITION,
      WEBHOOK_MESSAGES.notDisabled,
    ]);
  });

  it('signs with both secrets for the overlap after a rotation, and sends a delivery again by hand with its webhook-id', async () => {
    const userId = randomUUID();
    const created = await endpointFor(userId);
    const endpointId = created.endpoint!.id;
    const event = await approved(userId);
    const [head] = await waitFor(async () => {
      const r = await deliveriesOf(endpointId);
      return r.length ? r : undefined;
    });
    await job(head!.id, 1);
    await attempted({ deliveryId: head!.id, endpointId, attempt: 1 }, true);
    await waitFor(async () => ((await deliveriesOf(endpointId))[0]!.status === 'delivered' ? true : undefined));

    const rotated = await h.client.rotateEndpointSecret({ userId, endpointId });
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.endpoint!.previousSecretUntil!) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const again = await h.client.redeliver({ userId, endpointId, deliveryId: head!.id });
    expect(again).toMatchObject({ messageId: event.id, status: 'pending', eventType: 'submission.approved' });
    const data = await job(again.id, 1);
    expect(data.messageId).toBe(event.id);
    expect(data.sealedSecrets.map((s) => openSealedSecret(KEY, s))).toEqual([rotated.secret, created.secret]);
    expect(await refusal(h.client.redeliver({ userId, endpointId, deliveryId: randomUUID() }))).toEqual([
      status.NOT_FOUND,
      WEBHOOK_MESSAGES.deliveryNotFound,
    ]);

    await h.client.deleteEndpoint({ userId, endpointId });
    expect(await deliveriesOf(endpointId)).toEqual([]);
    expect((await h.client.listEndpoints({ userId })).endpoints).toEqual([]);
  });

  it('queues an attempt again when Redis lost its job, and counts it failed when the worker could not make it', async () => {
    const userId = randomUUID();
    const { endpoint } = await endpointFor(userId);
    await approved(userId);
    const [head] = await waitFor(async () => {
      const r = await deliveriesOf(endpoint!.id);
      return r.length ? r : undefined;
    });
    await job(head!.id, 1);
    await (await queue.getJob(webhookDeliveryJobId(head!.id, 1)))!.remove();
    // Gone from Redis: queued again, the same attempt.
    await job(head!.id, 1);

    // A worker that cannot make it (as when the sealed secret does not open): the job fails for good.
    const failing = new Worker<WebhookDeliveryJob>(
      WEBHOOK_QUEUE,
      () => Promise.reject(new UnrecoverableError('the sealed secret does not open')),
      { connection: { url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }, prefix: `${h.names.redisKeyPrefix}bull` },
    );
    try {
      await waitFor(async () => ((await deliveriesOf(endpoint!.id))[0]!.attempts === 1 ? true : undefined), 10_000, 'the attempt counted');
    } finally {
      await failing.close();
    }
    const page = await h.client.listDeliveries({ userId, endpointId: endpoint!.id });
    expect(page.deliveries[0]).toMatchObject({ status: 'pending', attempts: 1, lastError: ATTEMPT_NOT_MADE });
    // The platform's own failure: the endpoint is not counted as failing.
    expect((await h.client.listEndpoints({ userId })).endpoints[0]!.failingSince).toBeUndefined();
    await job(head!.id, 2);
  });
});

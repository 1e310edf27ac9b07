import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_WEBHOOK_SECRET_KEY, webhookDeliveryJobId } from '@clipit/contracts';
import { ConfigError, deterministicEventId, sealSecret } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { Webhook } from 'standardwebhooks';
import { bootstrapWebhookWorker, type WebhookWorkerApp } from '../../src/app.js';
import { USER_AGENT } from '../../src/jobs/webhook-delivery.handler.js';
import { newSecret, WebhookWorkerHarness } from '../support/webhook-worker-harness.js';
import { WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';

// webhook-worker against the real Redis (BullMQ) and NATS JetStream, delivering to a real receiver in this
// process (node:http on 127.0.0.1; the pipeline's workers allow loopback, as only tests do) that checks every
// request's signature with the standardwebhooks library. Then a worker without the loopback allowance, and the
// built service as its own process.

/** The receiver's check of a request, as a receiver in the wild does it: throws unless `secret` signed it. */
const verify = (secret: string, req: ReceivedRequest) => new Webhook(secret).verify(req.body, req.headers);

describe('webhook-worker: one attempt per job (real Redis, JetStream, a receiver in this process)', () => {
  const h = new WebhookWorkerHarness();
  const receiver = new WebhookReceiver();
  let worker: WebhookWorkerApp;

  beforeAll(async () => {
    await h.start();
    await receiver.start();
    worker = await h.startWorker();
  });

  afterAll(async () => {
    await h.stop();
    await receiver.close();
  });

  it('is ready once NATS, Redis and its queue worker are', async () => {
    const res = await fetch(`${worker.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { nats: 'ok', redis: 'ok', worker: 'ok' } });
  });

  it('delivers the payload signed, the receiver verifies it, and the attempt is stated once under an id derived from it', async () => {
    const secret = newSecret();
    receiver.on('/ok', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
    const d = await h.queueDelivery({ url: receiver.url('/ok'), secrets: [secret] });

    const { envelope, msgId, subject } = await h.waitForAttempt(d.deliveryId);
    const [req] = receiver.requestsTo('/ok') as [ReceivedRequest];
    expect(verify(secret, req)).toEqual(JSON.parse(d.payload));
    expect(req.method).toBe('POST');
    expect(req.body).toBe(d.payload);
    expect(req.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': d.messageId,
      'webhook-timestamp': String(Math.floor(Date.parse(envelope.data.at) / 1000)),
    });
    expect(subject).toBe(`${h.names.subjectPrefix}.webhook-worker.webhook.attempted.v1`);
    expect(envelope).toMatchObject({
      id: deterministicEventId('webhook.attempted', webhookDeliveryJobId(d.deliveryId, 1)),
      type: 'webhook.attempted',
      source: 'webhook-worker',
      data: {
        deliveryId: d.deliveryId,
        attempt: 1,
        endpointId: d.endpointId,
        ok: true,
        statusCode: 200,
        error: null,
        responseExcerpt: '{"received":true}',
        version: '0.1.0',
      },
    });
    expect(envelope.data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(msgId).toBe(envelope.id);
    await h.waitForState(d.jobId, 'completed');
    expect((await h.queue.getJob(d.jobId))?.returnvalue).toEqual({ eventId: envelope.id, ok: true, statusCode: 200 });
    expect(await h.storedEventsWhere((e) => e?.data.deliveryId === d.deliveryId)).toBe(1);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/webhook_jobs_total\{result="delivered"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/webhook_attempts_total\{outcome="ok"[^}]*\} [1-9]/);
  });

  it('signs with both secrets during a rotation: a receiver holding either one verifies the request', async () => {
    const [current, previous] = [newSecret(), newSecret()];
    const d = await h.queueDelivery({ url: receiver.url('/rotating'), secrets: [current, previous] });
    await h.waitForAttempt(d.deliveryId);
    const [req] = receiver.requestsTo('/rotating') as [ReceivedRequest];
    expect(req.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(current, req)).toEqual(JSON.parse(d.payload));
    expect(verify(previous, req)).toEqual(JSON.parse(d.payload));
    expect(() => verify(newSecret(), req)).toThrow('No matching signature found');
  });

  it('states a 500 as a failed attempt with its status and the first 1,024 characters of the answer; the job still completes', async () => {
    receiver.on('/broken', (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`boom ${'x'.repeat(5000)}`));
    const d = await h.queueDelivery({ url: receiver.url('/broken') });
    const { envelope } = await h.waitForAttempt(d.deliveryId);
    expect(envelope.data).toMatchObject({ ok: false, statusCode: 500, error: null });
    expect(envelope.data.responseExcerpt).toBe(`boom ${'x'.repeat(1019)}`);
    await h.waitForState(d.jobId, 'completed');
    const job = (await h.queue.getJob(d.jobId))!;
    expect(job.returnvalue).toEqual({ eventId: envelope.id, ok: false, statusCode: 500 });
    // One run, completed: not retried (BullMQ counts the run that completed).
    expect(job.attemptsMade).toBe(1);
    expect(receiver.requestsTo('/broken')).toHaveLength(1);
  });

  it('states a receiver that does not answer within WEBHOOK_TIMEOUT_MS as a failed attempt; the job still completes', async () => {
    receiver.on('/slow', (res) => setTimeout(() => res.end('too late'), 3000).unref());
    const d = await h.queueDelivery({ url: receiver.url('/slow') });
    const { envelope } = await h.waitForAttempt(d.deliveryId);
    expect(envelope.data).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'The endpoint did not answer within 1 s',
      responseExcerpt: '',
    });
    expect(envelope.data.latencyMs).toBeGreaterThanOrEqual(990);
    expect(envelope.data.latencyMs).toBeLessThan(2500);
    await h.waitForState(d.jobId, 'completed');
    expect((await h.queue.getJob(d.jobId))!.attemptsMade).toBe(1);
  });

  it('does not follow a redirect: the 3xx is a failed attempt naming where it pointed', async () => {
    const target = receiver.url('/moved-here');
    receiver.on('/moved', (res) => res.writeHead(301, { location: target }).end());
    const d = await h.queueDelivery({ url: receiver.url('/moved') });
    const { envelope } = await h.waitForAttempt(d.deliveryId);
    expect(envelope.data).toMatchObject({ ok: false, statusCode: 301, error: `Redirects are not followed (301 to ${target})` });
    await h.waitForState(d.jobId, 'completed');
    expect(receiver.requestsTo('/moved')).toHaveLength(1);
    expect(receiver.requestsTo('/moved-here')).toHaveLength(0);
  });

  it('refuses a private address literal without connecting, naming the address (even with loopback allowed)', async () => {
    const d = await h.queueDelivery({ url: 'http://10.255.255.1/hooks' });
    const { envelope } = await h.waitForAttempt(d.deliveryId);
    expect(envelope.data).toMatchObject({
      ok: false,
      statusCode: null,
      error: "The endpoint's address is not allowed: 10.255.255.1 is a private address",
      responseExcerpt: '',
    });
    // A connection to 10.255.255.1 would have hung until the 1 s deadline.
    expect(envelope.data.latencyMs).toBeLessThan(200);
    await h.waitForState(d.jobId, 'completed');
    const metadata = await h.queueDelivery({ url: 'http://169.254.169.254/latest/meta-data/' });
    expect((await h.waitForAttempt(metadata.deliveryId)).envelope.data.error).toBe(
      "The endpoint's address is not allowed: 169.254.169.254 is the cloud metadata address",
    );
  });

  it('states the same event, under the same id, when the same job runs twice, and calls the endpoint once', async () => {
    const d = await h.queueDelivery({ url: receiver.url('/twice') });
    await h.waitForState(d.jobId, 'completed');
    const job = (await h.queue.getJob(d.jobId))!;
    const first = job.returnvalue as { eventId: string };
    await job.retry('completed');
    await waitFor(async () => ((await h.queue.getJob(d.jobId))?.returnvalue ? true : undefined), 20_000, 'the second run');
    const again = (await h.queue.getJob(d.jobId))!;
    expect(again.returnvalue).toEqual(first);
    expect(first.eventId).toBe(deterministicEventId('webhook.attempted', d.jobId));
    expect(receiver.requestsTo('/twice')).toHaveLength(1);
    // JetStream dropped the second statement as a repeat of the first (same Nats-Msg-Id).
    expect(await h.storedEventsWhere((e) => e?.data.deliveryId === d.deliveryId)).toBe(1);
  });

  it('fails a job whose secret does not open under WEBHOOK_SECRET_KEY at once, calling nothing and stating nothing', async () => {
    const d = await h.queueDelivery({ url: receiver.url('/never'), sealedSecrets: [sealSecret(randomBytes(32), newSecret())] });
    await h.waitForState(d.jobId, 'failed');
    const job = (await h.queue.getJob(d.jobId))!;
    expect(job.failedReason).toMatch(/sealed secret 1 of 1 does not open under WEBHOOK_SECRET_KEY/);
    expect(job.attemptsMade).toBe(1);
    expect(receiver.requestsTo('/never')).toHaveLength(0);
    expect(h.eventsWhere((e) => e.data.deliveryId === d.deliveryId)).toEqual([]);
  });

  it('names a bad variable, and refuses the development key or loopback deliveries in production; starts nothing', async () => {
    await expect(bootstrapWebhookWorker({ WEBHOOK_WORKER_CONCURRENCY: 'many', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
    await expect(bootstrapWebhookWorker({ WEBHOOK_SECRET_KEY: 'short', LOG_LEVEL: 'silent' })).rejects.toThrow(
      /WEBHOOK_SECRET_KEY="short" is invalid: must be the base64 of 32 bytes/,
    );
    await expect(
      bootstrapWebhookWorker({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_SECRET_KEY, LOG_LEVEL: 'silent' }),
    ).rejects.toThrow(/refusing to start: WEBHOOK_SECRET_KEY is the development default/);
    await expect(
      bootstrapWebhookWorker({
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_LOOPBACK: true,
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow(/refusing to start: WEBHOOK_ALLOW_LOOPBACK is for tests only/);
  });

  it('runs as its own process: says it is ready, delivers, and exits 0 on SIGTERM', async () => {
    await worker.close();
    h.build();
    const proc = await h.startProcess();
    // Ready (health 200) as soon as it serves; the log says so once its queue worker has started too.
    await waitFor(() => proc.output().includes('"msg":"webhook-worker ready"') || undefined, 10_000, 'its ready line');
    const secret = newSecret();
    const d = await h.queueDelivery({ url: receiver.url('/from-process'), secrets: [secret] });
    expect((await h.waitForAttempt(d.deliveryId)).envelope.data).toMatchObject({ ok: true, statusCode: 200 });
    expect(verify(secret, receiver.requestsTo('/from-process')[0]!)).toEqual(JSON.parse(d.payload));
    await h.waitForState(d.jobId, 'completed');
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);
});

describe('webhook-worker without WEBHOOK_ALLOW_LOOPBACK (as in production)', () => {
  const h = new WebhookWorkerHarness();
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await h.start();
    await receiver.start();
    await h.startWorker({ WEBHOOK_ALLOW_LOOPBACK: false });
  });

  afterAll(async () => {
    await h.stop();
    await receiver.close();
  });

  it('refuses a receiver on localhost, by name or by address, without any connection to it', async () => {
    const byName = await h.queueDelivery({ url: receiver.url('/hook', 'localhost') });
    const byAddress = await h.queueDelivery({ url: receiver.url('/hook') });
    const byIpv6 = await h.queueDelivery({ url: `http://[::1]:${receiver.port}/hook` });
    expect((await h.waitForAttempt(byName.deliveryId)).envelope.data).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/^The endpoint's address is not allowed: (127\.0\.0\.1|::1) is a loopback address$/),
    });
    expect((await h.waitForAttempt(byAddress.deliveryId)).envelope.data.error).toBe(
      "The endpoint's address is not allowed: 127.0.0.1 is a loopback address",
    );
    expect((await h.waitForAttempt(byIpv6.deliveryId)).envelope.data.error).toBe(
      "The endpoint's address is not allowed: ::1 is a loopback address",
    );
    for (const d of [byName, byAddress, byIpv6]) await h.waitForState(d.jobId, 'completed');
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toEqual([]);
  });
});

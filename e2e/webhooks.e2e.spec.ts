// Webhooks end to end (issue 37, ADR 0053): a clipper's endpoint made through the gateway, the platform's own
// events (a moderator's approval and rejection, the weekly payout) turned into deliveries by developer and
// sent by the webhook worker to a real receiver in this process, which checks every signature with the
// standardwebhooks library. The receiver going away and coming back loses and doubles nothing and keeps the
// order; NATS going away during a payout still brings its webhook, once. The platform runs on a NATS of its
// own, so stopping it touches no other test.
import { startNatsServer, timeProfile, waitFor, type PrivateServer } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { signUp, type Account } from './support/accounts.js';
import { json } from './support/http.js';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';

/**
 * The receiver's outage and the retries' backoff, scaled together as the fault suite's profiles scale their
 * budgets: 60 s down against the production backoff (30 s, doubling) in the real-time profile
 * (FAULT_PROFILE=real-time); a tenth of both in `npm test`. Either way the first attempt and the retry 1
 * backoff later fail, and the one after comes back to a receiver that is up.
 */
const SCALE = timeProfile().name === 'real-time' ? 1 : 0.1;
const OUTAGE_MS = 60_000 * SCALE;
const RETRY_BASE_MS = 30_000 * SCALE;

interface Received {
  id: string;
  type: string;
  accepted: boolean;
  verified: boolean;
  signatures: number;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A receiver as a brand's server would be: verifies each request, answers 503 while `down`, drops nothing it took. */
class Receiver {
  readonly received: Received[] = [];
  down = false;
  secret = '';
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let verified = false;
        try {
          new Webhook(this.secret).verify(raw, headers);
          verified = true;
        } catch {
          verified = false;
        }
        const body = JSON.parse(raw) as Received['body'];
        const accepted = !this.down && verified;
        this.received.push({
          id: headers['webhook-id'] ?? '',
          type: body.type,
          accepted,
          verified,
          signatures: (headers['webhook-signature'] ?? '').split(' ').length,
          body,
        });
        res.writeHead(accepted ? 200 : this.down ? 503 : 400, { 'content-type': 'text/plain' });
        res.end(accepted ? 'ok' : this.down ? 'down for maintenance' : 'bad signature');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/clipit-hooks`;
  }

  /** What was taken (2xx), in the order it came. */
  accepted(type?: string): Received[] {
    return this.received.filter((r) => r.accepted && (!type || r.type === type));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('webhooks (gateway + developer + webhook worker + submissions + rewards, real servers, a private NATS)', () => {
  let nats: PrivateServer;
  let p: Platform;
  let clipper: Account;
  let adminToken: string;
  const receiver = new Receiver();
  let seq = 0;

  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const asClipper = (method: string, path: string, body?: unknown) => api(path, json(method, body, { cookie: clipper.cookie }));
  async function submit(): Promise<string> {
    seq += 1;
    const url = `https://x.com/${clipper.handle}/status/${Date.now()}${seq}`;
    const res = await asClipper('POST', '/api/submissions', { name: `Hooked clip ${seq}`, url, walletAddress: '' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const moderate = async (id: string, action: 'approve' | 'reject') =>
    expect(
      (
        await api(
          `/api/admin/submissions/${id}/${action}`,
          json('POST', action === 'reject' ? { reason: 'Not our brand' } : {}, { authorization: `Bearer ${adminToken}` }),
        )
      ).status,
    ).toBe(200);

  beforeAll(async () => {
    nats = await startNatsServer();
    const url = await receiver.start();
    p = await startPlatform(
      {},
      { NATS_URL: nats.url, WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_RETRY_MAX_MS: String(4 * RETRY_BASE_MS) },
      { webhookWorker: true },
    );
    clipper = await signUp(p.url, { prefix: 'hook' });
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
    const made = await asClipper('POST', '/api/webhooks', {
      url,
      events: ['submission.approved', 'submission.rejected', 'payout.sent', 'appeal.decided'],
    });
    expect(made.status).toBe(201);
    receiver.secret = ((await made.json()) as { secret: string }).secret;
  }, 60_000);

  afterAll(async () => {
    await p?.stop();
    await receiver.close();
    await nats?.close();
  });

  it('signs each delivery per Standard Webhooks, with the event as its webhook-id, and says what happened', async () => {
    const approved = await submit();
    const rejected = await submit();
    await moderate(approved, 'approve');
    await moderate(rejected, 'reject');
    const got = await waitFor(() => (receiver.accepted().length >= 2 ? receiver.accepted() : undefined), 15_000, 'two webhooks');
    expect(got.map((r) => [r.type, r.body.data['submissionId']])).toEqual([
      ['submission.approved', approved],
      ['submission.rejected', rejected],
    ]);
    expect(got.every((r) => r.verified && /^[0-9a-f-]{36}$/.test(r.id))).toBe(true);
    expect(got[1]!.body.data).toMatchObject({ status: 'rejected', rejectedReason: 'Not our brand' });
    // The log says the same, with the receiver's answer.
    const endpoints = (await (await asClipper('GET', '/api/webhooks')).json()) as { endpoints: { id: string }[] };
    const log = (await (await asClipper('GET', `/api/webhooks/${endpoints.endpoints[0]!.id}/deliveries`)).json()) as {
      deliveries: { messageId: string; status: string; lastStatusCode: number; responseExcerpt: string; latencyMs: number }[];
    };
    expect(log.deliveries.map((d) => d.messageId).sort()).toEqual(got.map((r) => r.id).sort());
    expect(log.deliveries.every((d) => d.status === 'delivered' && d.lastStatusCode === 200 && d.responseExcerpt === 'ok')).toBe(true);
  });

  it(
    'delivers each event once and in order after the receiver was down, retrying with backoff',
    async () => {
      const before = receiver.received.length;
      receiver.down = true;
      const clips = [await submit(), await submit(), await submit()];
      for (const id of clips) await moderate(id, 'approve');
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      receiver.down = false;
      const since = () => receiver.received.slice(before);
      await waitFor(
        () => (since().filter((r) => r.accepted).length >= 3 ? true : undefined),
        OUTAGE_MS + 8 * RETRY_BASE_MS + 15_000,
        'three webhooks',
      );
      // A moment more: nothing arrives twice.
      await new Promise((r) => setTimeout(r, 1000));
      const accepted = since().filter((r) => r.accepted);
      expect(accepted.map((r) => r.body.data['submissionId'])).toEqual(clips);
      expect(new Set(accepted.map((r) => r.id)).size).toBe(3);
      // The head was refused while down, then retried; the others waited behind it.
      const refused = since().filter((r) => !r.accepted);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(new Set(refused.map((r) => r.body.data['submissionId']))).toEqual(new Set([clips[0]]));
    },
    OUTAGE_MS + 8 * RETRY_BASE_MS + 60_000,
  );

  it('brings the payout webhook once, with its transaction signature, though NATS was away when the payout was made', async () => {
    await waitFor(
      async () => ((await p.rewardsDb.query('SELECT 1 FROM earnings WHERE user_id = $1', [clipper.id])).rowCount ? true : undefined),
      15_000,
      'an earning to pay',
    );
    await nats.process.stop();
    const run = await p.runPayouts(new Date(Date.now() + 8 * 24 * 3600_000));
    expect(run).toMatchObject({ paid: 1 });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.accepted('payout.sent')).toEqual([]);
    await nats.process.start();
    const [payout] = await waitFor(
      () => (receiver.accepted('payout.sent').length ? receiver.accepted('payout.sent') : undefined),
      30_000,
      'the payout webhook',
    );
    const { rows } = await p.rewardsDb.query<{ tx_hash: string; id: string }>('SELECT id, tx_hash FROM payouts WHERE user_id = $1', [
      clipper.id,
    ]);
    expect(payout!.body.data).toMatchObject({ payoutId: rows[0]!.id, txSignature: rows[0]!.tx_hash });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.accepted('payout.sent')).toHaveLength(1);
  });
});

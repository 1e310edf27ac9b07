import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { campaignsContract } from '@clipit/contracts';
import { DOMAIN_ERROR_TRAILER, GrpcCallError } from '@clipit/service-kit';
import { grpcError, startFakeGrpcServer, type FakeGrpcServer } from '@clipit/testing';
import pg from 'pg';
import { startAdmin, type AdminHarness } from '../support/admin-harness.js';

// admin against the real Postgres, NATS and Redis, with campaigns played at its contract (a service's
// tests never start another): the Campaigns tab's list passes through, a review goes to campaigns as
// the admin token, campaigns' refusals pass on with their words, and every review is audited.

const PASSWORD = 'a-test-admin-password';
const PENDING = '0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10';
const RUNNING = '1c8e5d2f-7b8e-4d2a-8c6a-3a4b2e8d0b21';

/** A refusal as campaigns' own code answers one (a domain error, its words meant for the caller). */
function refused(code: status, message: string) {
  const err = grpcError(code, message);
  err.metadata.set(DOMAIN_ERROR_TRAILER, '1');
  return err;
}

function campaign(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    streamerId: 'streamer-1',
    title: 'Launch week',
    description: 'Clip our launch stream for a week, please.',
    targetViews: '100000',
    budgetAmount: '500.00',
    status: 'pending',
    deliveredViews: '0',
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    streamerDisplayName: 'Big Streamer',
    streamerTwitterUsername: 'bigstreamer',
    ...overrides,
  };
}

async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  try {
    await call;
  } catch (err) {
    if (err instanceof GrpcCallError) return [err.code, err.message];
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('admin: reviewing CPM campaigns (campaigns faked at its contract)', () => {
  let campaigns: FakeGrpcServer;
  let h: AdminHarness;
  let db: pg.Client;
  let caller: { token: string; clientIp: string };

  beforeAll(async () => {
    campaigns = await startFakeGrpcServer(campaignsContract, {
      ListCampaigns: (r) => ({
        campaigns: [campaign(PENDING), campaign(RUNNING, { status: 'approved', deliveredViews: '24700' })].filter(
          (c) => !r['status'] || c.status === r['status'],
        ),
        nextCursor: 'next-page',
        total: '2',
      }),
      ReviewCampaign: (r) => {
        if (r['id'] === RUNNING) throw refused(status.FAILED_PRECONDITION, 'Only a pending campaign can be reviewed');
        if (r['id'] !== PENDING) throw refused(status.NOT_FOUND, 'Campaign not found');
        const approve = r['decision'] === 'approve';
        return campaign(PENDING, {
          status: approve ? 'approved' : 'rejected',
          reviewedBy: r['reviewedBy'],
          rejectedReason: approve ? undefined : r['reason'],
        });
      },
    });
    h = await startAdmin({
      ADMIN_PASSWORD: PASSWORD,
      CAMPAIGNS_GRPC_URL: campaigns.url,
      SUBMISSIONS_GRPC_URL: '127.0.0.1:1',
      IDENTITY_GRPC_URL: '127.0.0.1:1',
    });
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    const { token } = await h.client.verifyPassword({ password: PASSWORD, clientIp: '192.0.2.20' });
    caller = { token: token!, clientIp: '192.0.2.20' };
  });
  afterAll(async () => {
    await db?.end();
    await h?.stop();
    await campaigns?.stop();
  });

  it('lists campaigns of one status with the streamer’s name, handle and delivered views', async () => {
    const page = await h.client.listCampaigns({ caller, status: 'approved', limit: 10 });
    // int64 fields arrive as text over gRPC (longs: String); the gateway reads them with Number().
    expect({ nextCursor: page.nextCursor, total: Number(page.total) }).toEqual({ nextCursor: 'next-page', total: 2 });
    expect(page.campaigns.map((c) => ({ ...c, deliveredViews: Number(c.deliveredViews), targetViews: Number(c.targetViews) }))).toEqual([
      expect.objectContaining({
        id: RUNNING,
        status: 'approved',
        deliveredViews: 24_700,
        targetViews: 100_000,
        budgetAmount: '500.00',
        streamerDisplayName: 'Big Streamer',
        streamerHandle: 'bigstreamer',
      }),
    ]);
    expect(campaigns.calls.at(-1)).toMatchObject({ method: 'ListCampaigns', request: { status: 'approved', limit: 10 } });
    expect(await refusal(h.client.listCampaigns({ caller, status: 'running' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Unknown campaign status: running',
    ]);
  });

  it('approves as the admin token and audits it; campaigns’ refusals pass on with their words, audited as refused', async () => {
    const approved = await h.client.reviewCampaign({ caller, campaignId: PENDING, decision: 'approve' });
    expect(approved).toMatchObject({ id: PENDING, status: 'approved' });
    const reviewedBy = approved.reviewedBy!;
    expect(reviewedBy).toEqual(expect.any(String));
    expect(campaigns.calls.at(-1)).toMatchObject({ method: 'ReviewCampaign', request: { id: PENDING, decision: 'approve', reviewedBy } });

    expect(await refusal(h.client.reviewCampaign({ caller, campaignId: RUNNING, decision: 'approve' }))).toEqual([
      status.FAILED_PRECONDITION,
      'Only a pending campaign can be reviewed',
    ]);
    expect(
      await refusal(h.client.reviewCampaign({ caller, campaignId: '2d9f6e30-8c9f-4e3b-9d7b-4b5c3f9e1c32', decision: 'reject' })),
    ).toEqual([status.NOT_FOUND, 'Campaign not found']);
    const rejected = await h.client.reviewCampaign({ caller, campaignId: PENDING, decision: 'reject', reason: 'Not a fit for this brand' });
    expect(rejected).toMatchObject({ status: 'rejected', rejectedReason: 'Not a fit for this brand' });

    const { rows } = await db.query<{
      action: string;
      target: string;
      result: string;
      detail: string | null;
      actor: string;
      client_ip: string;
    }>(`SELECT action, target, result, detail, actor, client_ip FROM audit_entries WHERE action LIKE '%-campaign' ORDER BY created_at`);
    expect(rows).toEqual([
      { action: 'approve-campaign', target: `campaign ${PENDING}`, result: 'ok', detail: null, actor: reviewedBy, client_ip: '192.0.2.20' },
      {
        action: 'approve-campaign',
        target: `campaign ${RUNNING}`,
        result: 'refused',
        detail: 'Only a pending campaign can be reviewed',
        actor: reviewedBy,
        client_ip: '192.0.2.20',
      },
      {
        action: 'reject-campaign',
        target: 'campaign 2d9f6e30-8c9f-4e3b-9d7b-4b5c3f9e1c32',
        result: 'refused',
        detail: 'Campaign not found',
        actor: reviewedBy,
        client_ip: '192.0.2.20',
      },
      {
        action: 'reject-campaign',
        target: `campaign ${PENDING}`,
        result: 'ok',
        detail: 'reason: Not a fit for this brand',
        actor: reviewedBy,
        client_ip: '192.0.2.20',
      },
    ]);
  });
});

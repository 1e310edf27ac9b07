import { status } from '@grpc/grpc-js';
import type { campaignsV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { AuditService } from './audit.service.js';
import { CampaignsReviewService } from './campaigns-review.service.js';

// Unit specs build the service with every dependency a strict auto-mock (libs/testing): a call the test
// did not set up fails where it happens.

const ID = '0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10';
const ACTOR = 'token-id-1';
const caller = { token: 'v1.x', clientIp: '198.51.100.7' };

function aCampaign(overrides: Partial<campaignsV1.CpmCampaign> = {}): campaignsV1.CpmCampaign {
  return {
    id: ID,
    streamerId: 'streamer-1',
    title: 'Launch week',
    description: 'Clip our launch stream for a week, please.',
    targetViews: 100_000,
    budgetAmount: '500.00',
    status: 'pending',
    deliveredViews: 0,
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    streamerDisplayName: 'Big Streamer',
    streamerTwitterUsername: 'bigstreamer',
    ...overrides,
  };
}

function setup() {
  const campaigns = automock<CampaignsClient>('CampaignsClient', ['listCampaigns', 'reviewCampaign']);
  const { service, mock } = createTestService(CampaignsReviewService, { [CAMPAIGNS_CLIENT]: campaigns });
  const audit = mock(AuditService);
  audit.record.mockResolvedValue(undefined);
  return { service, campaigns, audit };
}

describe('CampaignsReviewService', () => {
  it('lists every campaign as the owner pages them, with the streamer’s name and handle', async () => {
    const f = setup();
    f.campaigns.listCampaigns.mockResolvedValue({
      campaigns: [aCampaign({ contentLink: 'https://x.com/s/1' })],
      nextCursor: 'next',
      total: 3,
    });
    const page = await f.service.list({ status: 'pending', limit: 10, cursor: 'c1' });
    expect(f.campaigns.listCampaigns).toHaveBeenCalledWith({ status: 'pending', limit: 10, cursor: 'c1' });
    expect(page).toEqual({
      campaigns: [
        expect.objectContaining({
          id: ID,
          streamerDisplayName: 'Big Streamer',
          streamerHandle: 'bigstreamer',
          targetViews: 100_000,
          budgetAmount: '500.00',
          deliveredViews: 0,
          contentLink: 'https://x.com/s/1',
          status: 'pending',
        }),
      ],
      nextCursor: 'next',
      total: 3,
    });
  });

  it('asks for every status when none is given, and refuses an unknown one without calling the owner', async () => {
    const f = setup();
    f.campaigns.listCampaigns.mockResolvedValue({ campaigns: [], total: 0 });
    await expect(f.service.list({ status: '' })).resolves.toEqual({ campaigns: [], total: 0 });
    expect(f.campaigns.listCampaigns).toHaveBeenCalledWith({ status: undefined, limit: undefined, cursor: undefined });
    expect(await rejectedWith(f.service.list({ status: 'running' }), DomainError)).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Unknown campaign status: running',
    });
  });

  it('names the campaigns service when it is away', async () => {
    const f = setup();
    f.campaigns.listCampaigns.mockRejectedValue(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'listCampaigns'));
    expect(await rejectedWith(f.service.list({}), DomainError)).toMatchObject({
      code: status.UNAVAILABLE,
      message: 'The campaigns service is unavailable right now. Please try again shortly.',
    });
  });

  it('approves as the admin token, without a reason, and audits it', async () => {
    const f = setup();
    f.campaigns.reviewCampaign.mockResolvedValue(
      aCampaign({ status: 'approved', reviewedBy: ACTOR, approvedAt: '2026-11-26T11:00:00.000Z' }),
    );
    const approved = await f.service.review({ caller, campaignId: ID, decision: 'approve', reason: 'ignored' }, ACTOR);
    expect(approved).toMatchObject({ id: ID, status: 'approved', reviewedBy: ACTOR, approvedAt: '2026-11-26T11:00:00.000Z' });
    expect(f.campaigns.reviewCampaign).toHaveBeenCalledWith({ id: ID, decision: 'approve', reviewedBy: ACTOR });
    expect(f.audit.record).toHaveBeenCalledWith({
      action: 'approve-campaign',
      target: `campaign ${ID}`,
      result: 'ok',
      detail: null,
      actor: ACTOR,
      clientIp: '198.51.100.7',
    });
  });

  it('rejects with the trimmed reason and audits the reason', async () => {
    const f = setup();
    f.campaigns.reviewCampaign.mockResolvedValue(aCampaign({ status: 'rejected', rejectedReason: 'Budget too small for this brand' }));
    await f.service.review({ caller, campaignId: ID, decision: 'reject', reason: '  Budget too small for this brand ' }, ACTOR);
    expect(f.campaigns.reviewCampaign).toHaveBeenCalledWith({
      id: ID,
      decision: 'reject',
      reason: 'Budget too small for this brand',
      reviewedBy: ACTOR,
    });
    expect(f.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'reject-campaign', result: 'ok', detail: 'reason: Budget too small for this brand' }),
    );
  });

  it('passes the owner’s refusal on with its words and audits it as refused', async () => {
    const f = setup();
    f.campaigns.reviewCampaign.mockRejectedValue(
      new GrpcCallError(status.FAILED_PRECONDITION, 'This streamer already has a running campaign', 'reviewCampaign', true),
    );
    expect(await rejectedWith(f.service.review({ caller, campaignId: ID, decision: 'approve' }, ACTOR), DomainError)).toMatchObject({
      code: status.FAILED_PRECONDITION,
      message: 'This streamer already has a running campaign',
    });
    expect(f.audit.record).toHaveBeenCalledWith({
      action: 'approve-campaign',
      target: `campaign ${ID}`,
      result: 'refused',
      detail: 'This streamer already has a running campaign',
      actor: ACTOR,
      clientIp: '198.51.100.7',
    });
  });

  it('audits a review the owner could not be reached for as failed', async () => {
    const f = setup();
    f.campaigns.reviewCampaign.mockRejectedValue(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'reviewCampaign'));
    expect(await rejectedWith(f.service.review({ caller, campaignId: ID, decision: 'reject' }, ACTOR), DomainError)).toMatchObject({
      code: status.UNAVAILABLE,
    });
    expect(f.audit.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'reject-campaign', result: 'failed' }));
  });

  it('refuses an unknown decision or a reason over 500 characters before calling the owner', async () => {
    const f = setup();
    expect(await rejectedWith(f.service.review({ caller, campaignId: ID, decision: 'pause' }, ACTOR), DomainError)).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Unknown campaign decision: pause',
    });
    expect(
      await rejectedWith(f.service.review({ caller, campaignId: ID, decision: 'reject', reason: 'x'.repeat(501) }, ACTOR), DomainError),
    ).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Rejection reason must be at most 500 characters',
    });
    expect(f.campaigns.reviewCampaign).not.toHaveBeenCalled();
  });
});

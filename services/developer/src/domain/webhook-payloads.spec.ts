import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { buildEventEnvelope } from '@clipit/service-kit';
import { submissionSnapshot } from '@clipit/testing';
import { webhookOf } from './webhook-payloads.js';

const at = '2026-11-30T10:00:00.000Z';
const owner = randomUUID();

const campaign = {
  id: randomUUID(),
  streamerId: owner,
  title: 'Winter clips',
  description: 'Clip the winter stream',
  targetViews: 100_000,
  budgetAmount: '500.00',
  contentLink: null,
  status: 'approved' as const,
  deliveredViews: 31_000,
  rejectedReason: null,
  reviewedBy: 'admin',
  reviewedAt: at,
  approvedAt: at,
  completedAt: null,
  createdAt: at,
  updatedAt: at,
};

describe('webhook payloads', () => {
  it("says whose each event is, under the webhook's own name, in a body of type, timestamp and data", () => {
    const approved = buildEventEnvelope('submission.approved', {
      submission: submissionSnapshot({ userId: owner, status: 'approved', approvedAt: at }),
    });
    const made = webhookOf(approved);
    expect(made).toMatchObject({ ownerId: owner, type: 'submission.approved' });
    expect(JSON.parse(made.body)).toEqual({
      type: 'submission.approved',
      timestamp: approved.occurredAt,
      data: expect.objectContaining({ submissionId: approved.data.submission.id, status: 'approved', approvedAt: at }),
    });
  });

  it('names a payout payout.sent with its transaction signature, and leaves out what a receiver has no use for', () => {
    const payout = {
      payoutId: randomUUID(),
      userId: owner,
      walletAddress: 'So1ana',
      amount: '12.5',
      txHash: 'sig123',
      periodStart: at,
      periodEnd: at,
      at,
    };
    const made = webhookOf(buildEventEnvelope('rewards.payout-paid', payout as never));
    expect(made).toMatchObject({ ownerId: owner, type: 'payout.sent' });
    expect(made.data).toEqual({
      payoutId: payout.payoutId,
      amount: '12.5',
      walletAddress: 'So1ana',
      txSignature: 'sig123',
      periodStart: at,
      periodEnd: at,
      paidAt: at,
    });
  });

  it("sends a campaign's progress and completion to its streamer", () => {
    const progress = webhookOf(
      buildEventEnvelope('campaign.progress', { campaign, percent: 30, deliveredViews: 31_000, targetViews: 100_000 }),
    );
    expect(progress).toMatchObject({
      ownerId: owner,
      type: 'campaign.progress',
      data: { campaignId: campaign.id, percent: 30, deliveredViews: 31_000 },
    });
    const done = webhookOf(
      buildEventEnvelope('campaign.completed', {
        campaign: { ...campaign, status: 'completed', completedAt: at, deliveredViews: 100_000 },
      }),
    );
    expect(done).toMatchObject({ ownerId: owner, type: 'campaign.completed', data: { status: 'completed', completedAt: at } });
  });

  it("sends an appeal's decision to the clipper who appealed, with the admin's reason but not who decided", () => {
    const appeal = {
      appealId: randomUUID(),
      submissionId: randomUUID(),
      userId: owner,
      kind: 'rejection' as const,
      text: 'It is my own clip',
      status: 'overturned' as const,
      earningId: null,
      decision: { outcome: 'overturned' as const, reason: 'The clip is original', by: 'admin-token-7', at },
      createdAt: at,
    };
    const made = webhookOf(buildEventEnvelope('appeal.decided', { appeal }));
    expect(made).toMatchObject({ ownerId: owner, type: 'appeal.decided' });
    expect(made.data).toEqual({
      appealId: appeal.appealId,
      submissionId: appeal.submissionId,
      kind: 'rejection',
      outcome: 'overturned',
      reason: 'The clip is original',
      decidedAt: at,
    });
    expect(made.body).not.toContain('admin-token-7');
  });
});

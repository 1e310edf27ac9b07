import { status } from '@grpc/grpc-js';
import { CAMPAIGN_MESSAGES } from '@clipit/field-rules';
import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CAMPAIGN_ID, campaign, EARLIER, refusal, STREAMER_ID, tx, uniqueViolationOf } from '../../test/support/unit-fixtures.js';
import { toCampaignSnapshot } from '../domain/campaign.js';
import { MESSAGES } from '../domain/messages.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';
import { CpmCampaignsService } from './cpm-campaigns.service.js';

// Submitting, listing and reviewing CPM campaigns with the repositories, the progress collaborator and
// the outbox auto-mocked: the checks in their order, each refusal's words, the state written and the
// event that goes with it. The SQL and the one-running index are the integration tests'.

const NAMES = { displayName: 'Sam Streamer', twitterUsername: 'sam' };

function setup() {
  const { service, mock } = createTestService(CpmCampaignsService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const repo = mock(CampaignRepository);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  mock(PeopleRepository).namesOf.mockResolvedValue(NAMES);
  return { service, transactions, repo, outbox, clips: mock(ClipRepository), progress: mock(CampaignProgressService) };
}

const brief = {
  streamerId: STREAMER_ID.toUpperCase(),
  callerRole: 'streamer',
  title: 'Launch week clips',
  description: 'Clips of the launch stream, posted on X during launch week.',
  targetViews: '100,000',
  budgetAmount: '500',
};
const review = (patch: Partial<{ decision: string; reason: string; reviewedBy: string; id: string }> = {}) => ({
  id: CAMPAIGN_ID,
  decision: 'approve',
  reviewedBy: 'admin-ana',
  ...patch,
});

describe('CpmCampaignsService.submit', () => {
  it('stores a pending campaign for the caller (id lower-cased) with campaign.submitted in the same transaction', async () => {
    const f = setup();
    f.repo.insert.mockResolvedValue(undefined);
    const answer = await f.service.submit(brief, AT);

    const [insertTx, stored] = f.repo.insert.mock.calls[0]!;
    expect(insertTx).toBe(tx);
    expect(stored).toMatchObject({
      streamerId: STREAMER_ID,
      status: 'pending',
      targetViews: 100_000,
      budgetAmount: '500.00',
      deliveredViews: 0,
    });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'campaign.submitted', { campaign: toCampaignSnapshot(stored) });
    expect(answer).toMatchObject({ id: stored.id, status: 'pending', streamerDisplayName: 'Sam Streamer', streamerTwitterUsername: 'sam' });
  });

  it('refuses anyone but a streamer, then a bad streamer id, then the rule’s first error, writing nothing', async () => {
    const f = setup();
    expect(await refusal(f.service.submit({ ...brief, callerRole: 'clipper' }))).toEqual({
      code: status.PERMISSION_DENIED,
      message: CAMPAIGN_MESSAGES.streamersOnly,
    });
    expect(await refusal(f.service.submit({ ...brief, streamerId: 'someone' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidStreamerId,
    });
    expect(await refusal(f.service.submit({ ...brief, targetViews: '50,000', budgetAmount: '250' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: CAMPAIGN_MESSAGES.targetViewsMin,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });
});

describe('CpmCampaignsService.list', () => {
  it('pages newest first: one row more than the page says there is a next one', async () => {
    const f = setup();
    const rows = [campaign({ id: 'c0000000-0000-4000-8000-000000000002' }), campaign({ id: 'c0000000-0000-4000-8000-000000000001' })];
    f.repo.listPage.mockResolvedValue(rows.map((c) => ({ ...c, names: NAMES })));
    f.repo.count.mockResolvedValue(7);
    f.clips.viewsNotUnderReview.mockResolvedValue(new Map());
    const answer = await f.service.list({ streamerId: STREAMER_ID, status: 'pending', limit: 1 });
    expect(f.repo.listPage).toHaveBeenCalledWith({ streamerId: STREAMER_ID, status: 'pending' }, 2, undefined);
    expect(answer.campaigns.map((c) => c.id)).toEqual([rows[0]!.id]);
    expect(answer.nextCursor).toEqual(expect.any(String));
    expect(answer.total).toBe(7);
  });

  it('answers each campaign’s verified views: its counted clips not under review, within its window, never above delivered', async () => {
    const f = setup();
    const running = campaign({
      id: 'c0000000-0000-4000-8000-000000000003',
      status: 'approved',
      approvedAt: EARLIER,
      deliveredViews: 30_000,
    });
    const completed = campaign({
      id: 'c0000000-0000-4000-8000-000000000002',
      status: 'completed',
      approvedAt: EARLIER,
      completedAt: AT,
      deliveredViews: 100_000,
    });
    const waiting = campaign({ id: 'c0000000-0000-4000-8000-000000000001' });
    f.repo.listPage.mockResolvedValue([running, completed, waiting].map((c) => ({ ...c, names: NAMES })));
    f.repo.count.mockResolvedValue(3);
    f.clips.viewsNotUnderReview.mockResolvedValue(
      new Map([
        [running.id, 12_000],
        [completed.id, 140_000],
      ]),
    );
    const answer = await f.service.list({ streamerId: STREAMER_ID });
    // One query for the page, with each approved campaign's window; the pending one has none.
    expect(f.clips.viewsNotUnderReview).toHaveBeenCalledTimes(1);
    expect(f.clips.viewsNotUnderReview).toHaveBeenCalledWith(
      [
        { campaignId: running.id, streamerId: STREAMER_ID, since: EARLIER, until: null },
        { campaignId: completed.id, streamerId: STREAMER_ID, since: EARLIER, until: AT },
      ],
      'gold',
    );
    expect(answer.campaigns.map((c) => [c.deliveredViews, c.verifiedViews])).toEqual([
      [30_000, 12_000],
      [100_000, 100_000],
      [0, 0],
    ]);
  });

  it('refuses an unknown status and a bad streamer id', async () => {
    const f = setup();
    expect(await refusal(f.service.list({ status: 'running' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.unknownCampaignStatus('running'),
    });
    expect(await refusal(f.service.list({ streamerId: 'nobody' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidStreamerId,
    });
  });
});

describe('CpmCampaignsService.review', () => {
  it('approves a pending campaign, publishes campaign.reviewed and counts the clips it already has', async () => {
    const f = setup();
    f.repo.lock.mockResolvedValue(campaign());
    f.repo.lockRunning.mockResolvedValue(undefined);
    f.repo.save.mockResolvedValue(undefined);
    const counted = campaign({ status: 'approved', approvedAt: AT, deliveredViews: 1200 });
    f.progress.recompute.mockResolvedValue(counted);

    const answer = await f.service.review(review(), AT);
    const approved = campaign({ status: 'approved', reviewedBy: 'admin-ana', reviewedAt: AT, approvedAt: AT, updatedAt: AT });
    expect(f.repo.save).toHaveBeenCalledWith(tx, approved);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'campaign.reviewed', { campaign: toCampaignSnapshot(approved), decision: 'approved' });
    expect(f.progress.recompute).toHaveBeenCalledWith(tx, STREAMER_ID, AT);
    expect(answer).toMatchObject({ status: 'approved', deliveredViews: 1200 });
  });

  it('rejects with the trimmed reason and counts nothing', async () => {
    const f = setup();
    f.repo.lock.mockResolvedValue(campaign());
    f.repo.save.mockResolvedValue(undefined);
    const answer = await f.service.review(review({ decision: 'reject', reason: '  Off-brand content  ', reviewedBy: ' ' }), AT);
    const rejected = campaign({
      status: 'rejected',
      reviewedBy: 'admin',
      reviewedAt: AT,
      rejectedReason: 'Off-brand content',
      updatedAt: AT,
    });
    expect(f.repo.save).toHaveBeenCalledWith(tx, rejected);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'campaign.reviewed', { campaign: toCampaignSnapshot(rejected), decision: 'rejected' });
    expect(f.repo.lockRunning).not.toHaveBeenCalled();
    expect(answer).toMatchObject({ status: 'rejected', rejectedReason: 'Off-brand content' });
  });

  it('refuses a bad decision, id or reason before opening a transaction', async () => {
    const f = setup();
    expect(await refusal(f.service.review(review({ decision: 'maybe' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.unknownDecision('maybe'),
    });
    expect(await refusal(f.service.review(review({ id: '42' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidCampaignId,
    });
    expect(await refusal(f.service.review(review({ decision: 'reject', reason: 'x'.repeat(501) })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.reasonTooLong,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('refuses a campaign that is gone or no longer pending, and a second running one, saving nothing', async () => {
    const f = setup();
    f.repo.lock.mockResolvedValueOnce(undefined);
    expect(await refusal(f.service.review(review()))).toEqual({ code: status.NOT_FOUND, message: MESSAGES.campaignNotFound });
    f.repo.lock.mockResolvedValueOnce(campaign({ status: 'rejected' }));
    expect(await refusal(f.service.review(review()))).toEqual({ code: status.FAILED_PRECONDITION, message: MESSAGES.notPending });
    f.repo.lock.mockResolvedValueOnce(campaign());
    f.repo.lockRunning.mockResolvedValueOnce(campaign({ id: 'c0000000-0000-4000-8000-000000000009', status: 'approved' }));
    expect(await refusal(f.service.review(review()))).toEqual({ code: status.FAILED_PRECONDITION, message: MESSAGES.oneRunning });
    expect(f.repo.save).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('answers a lost race for the one running campaign (the unique index) in the same words', async () => {
    const f = setup();
    f.transactions.run.mockRejectedValueOnce(uniqueViolationOf('cpm_campaigns_one_running_idx'));
    expect(await refusal(f.service.review(review()))).toEqual({ code: status.FAILED_PRECONDITION, message: MESSAGES.oneRunning });
  });
});

import { status } from '@grpc/grpc-js';
import { DomainError, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, daysBefore, reader, standing, TABLES, tx, withReader } from '../../test/support/unit-fixtures.js';
import { holdReason } from '../domain/hold.js';
import { messages } from '../domain/messages.js';
import type { ApprovedClip } from '../domain/rules.js';
import { EarningRepository, type EarningRow } from '../repositories/earning.repository.js';
import { PayoutRepository, type PayoutRow } from '../repositories/payout.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { StandingRepository } from '../repositories/standing.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { DirectoryService } from './directory.service.js';
import { RewardsQueryService } from './rewards-query.service.js';
import { StandingService } from './standing.service.js';

// What the dashboard, the points card, the Earnings tab and the payout ledger read, with the repositories
// auto-mocked (the rules run for real): the figures each answer is made of, the payout hold, the
// defaults of a clipper with nothing yet, and the refusal of a bad id.

const clip = (days: number, views: number): ApprovedClip => ({ approvedAt: daysBefore(days), views, streamerMultiplier: 1 });

function setup() {
  const { service, mock } = createTestService(RewardsQueryService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  mock(TiersRepository).current.mockResolvedValue(TABLES);
  const standings = withReader(mock(StandingRepository));
  standings.rankOf.mockResolvedValue({ rank: 3, total: 40 });
  return {
    service,
    transactions,
    standings,
    submissions: mock(SubmissionRepository),
    earnings: mock(EarningRepository),
    payouts: mock(PayoutRepository),
    people: mock(PeopleRepository),
    standing: mock(StandingService),
    directory: mock(DirectoryService),
  };
}

const badId = async (call: Promise<unknown>) => {
  const err = await rejectedWith(call, DomainError);
  return { code: err.code, message: err.message };
};

describe('RewardsQueryService.dashboard', () => {
  function dashboardOf(f: ReturnType<typeof setup>, walletChangedAt: Date | null, unpaidCount = 2) {
    f.standings.find.mockResolvedValue(standing({ currentTier: 1 }));
    // 3 approved (2 in the 4 weeks, 1 this week) and 1 rejected: Bronze, on the way to Silver.
    f.submissions.factsOf.mockResolvedValue({ approved: [clip(2, 900), clip(10, 300), clip(40, 0)], rejectedCount: 1 });
    f.earnings.totals.mockResolvedValue({ paid: '10.000000', pending: '25.500000', held: '0.000000', total: '35.500000' });
    f.submissions.recent.mockResolvedValue([
      {
        id: 's1',
        name: 'Clip',
        platform: 'twitter',
        url: 'https://x.com/c/status/1',
        views: 900,
        status: 'rejected',
        rejectedReason: 'Off-topic',
        createdAt: daysBefore(2),
      },
    ]);
    f.people.find.mockResolvedValue({
      id: CLIPPER_ID,
      role: 'clipper',
      displayName: null,
      twitterUsername: null,
      walletAddress: 'wallet',
      walletChangedAt,
      streamerMultiplier: 1,
      followerCount: 0,
    });
    f.earnings.unpaid.mockResolvedValue({ amount: '25.500000', count: unpaidCount });
    return f.service.dashboard({ userId: CLIPPER_ID.toUpperCase() }, AT);
  }

  it('answers the tier, its progress, the 4-week metrics, the earnings and the recent submissions from the reader', async () => {
    const f = setup();
    const answer = await dashboardOf(f, null);
    expect(f.standings.find).toHaveBeenCalledWith(reader, CLIPPER_ID);
    expect(f.submissions.recent).toHaveBeenCalledWith(reader, CLIPPER_ID, 20);
    expect(answer).toMatchObject({
      currentTier: 1,
      tierProgress: { currentTier: { name: 'Bronze', ratePerClip: '10' }, nextTier: { name: 'Silver', ratePerClip: '15' } },
      metrics: { totalApproved: 3, approvedInWindow: 2, approvalRate: 0.75, avgViews: 400, approvedThisWeek: 1, windowWeeks: 4 },
      earningsSummary: { paid: '10', pending: '25.5', total: '35.5', held: '0' },
      recentSubmissions: [{ id: 's1', status: 'rejected', rejectedReason: 'Off-topic', createdAt: daysBefore(2).toISOString() }],
    });
    expect(answer.hold).toBeUndefined();
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('shows the payout hold while the wallet is under 72 hours old and earnings wait, with its words', async () => {
    const f = setup();
    const changed = new Date(AT.getTime() - 3_600_000);
    const answer = await dashboardOf(f, changed);
    const until = new Date(changed.getTime() + 72 * 3_600_000);
    expect(answer.hold).toEqual({
      amount: '25.5',
      reason: holdReason(changed, until),
      heldUntil: until.toISOString(),
      walletChangedAt: changed.toISOString(),
    });
  });

  it('shows no hold with nothing unpaid, or once the 72 hours are over', async () => {
    expect((await dashboardOf(setup(), new Date(AT.getTime() - 3_600_000), 0)).hold).toBeUndefined();
    expect((await dashboardOf(setup(), daysBefore(3))).hold).toBeUndefined();
  });

  it('refuses an id that is no uuid', async () => {
    expect(await badId(setup().service.dashboard({ userId: 'me' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: messages.invalidUserId,
    });
  });
});

describe('RewardsQueryService stats and refresh', () => {
  it('answers a user with no standing as bronze with no points, ranked among everyone', async () => {
    const f = setup();
    f.standings.find.mockResolvedValue(undefined);
    f.directory.requireUser.mockResolvedValue(undefined);
    f.standings.rankOf.mockResolvedValue({ rank: 41, total: 40 });
    await expect(f.service.stats({ userId: CLIPPER_ID })).resolves.toEqual({
      points: 0,
      tier: 'bronze',
      rank: 41,
      totalClippers: 40,
      breakdown: { approvedCount: 0, basePoints: 0, viewBonusPoints: 0, approvalRatio: 0, inactivityPenalty: false, finalPoints: 0 },
      // What a Bronze clipper cannot use yet, answered by rewards (the gateway passes it on).
      lockedFeatures: ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'],
    });
    expect(f.standings.rankOf).toHaveBeenCalledWith(reader, 0);
    expect(f.directory.requireUser).toHaveBeenCalledWith(CLIPPER_ID);
  });

  it('refuses an id that is no user as not found rather than answering zeros, and does not ask when a standing exists', async () => {
    const f = setup();
    f.standings.find.mockResolvedValueOnce(undefined);
    f.directory.requireUser.mockRejectedValue(new DomainError(status.NOT_FOUND, messages.userNotFound));
    expect(await badId(f.service.stats({ userId: CLIPPER_ID }))).toEqual({ code: status.NOT_FOUND, message: messages.userNotFound });
    expect(f.standings.rankOf).not.toHaveBeenCalled();

    f.standings.find.mockResolvedValueOnce(standing({ clipPoints: 120 }));
    await expect(f.service.stats({ userId: CLIPPER_ID })).resolves.toMatchObject({ points: 120 });
    expect(f.directory.requireUser).toHaveBeenCalledTimes(1);
  });

  it('recomputes on Refresh Points in a transaction of its own and answers the new figures', async () => {
    const f = setup();
    f.standing.recompute.mockResolvedValue(standing({ clipPoints: 700, clipperTier: 'silver', currentTier: 2, lastClipPointsUpdate: AT }));
    const answer = await f.service.refresh({ userId: CLIPPER_ID }, AT);
    expect(f.standing.recompute).toHaveBeenCalledWith(tx, CLIPPER_ID, AT);
    expect(f.standings.rankOf).toHaveBeenCalledWith(reader, 700);
    expect(answer).toMatchObject({ points: 700, tier: 'silver', rank: 3, lastUpdated: AT.toISOString() });
    expect(await badId(f.service.refresh({ userId: '' }))).toEqual({ code: status.INVALID_ARGUMENT, message: messages.invalidUserId });
    expect(f.transactions.run).toHaveBeenCalledTimes(1);
  });
});

describe('RewardsQueryService lists', () => {
  const earning = (id: string, patch: Partial<EarningRow> = {}): EarningRow => ({
    id,
    userId: CLIPPER_ID,
    submissionId: `sub-${id}`,
    amount: '15.000000',
    type: 'post',
    status: 'pending',
    periodStart: null,
    periodEnd: null,
    txHash: null,
    payoutId: null,
    createdAt: daysBefore(1),
    holdReasons: null,
    heldAt: null,
    decidedCauses: null,
    decision: null,
    ...patch,
  });

  it('pages the clipper’s earnings with their submissions’ names and what a payout added', async () => {
    const f = setup();
    f.earnings.page.mockResolvedValue([earning('e2', { status: 'paid', txHash: 'sig', payoutId: 'p1' }), earning('e1')]);
    f.submissions.nameOf.mockResolvedValue(new Map([['sub-e2', 'Best clip']]));
    const answer = await f.service.listEarnings({ userId: CLIPPER_ID, limit: 1 });
    expect(f.earnings.page).toHaveBeenCalledWith(reader, CLIPPER_ID, undefined, 2);
    expect(f.submissions.nameOf).toHaveBeenCalledWith(reader, ['sub-e2']);
    expect(answer.earnings).toEqual([
      {
        id: 'e2',
        submissionId: 'sub-e2',
        amount: '15',
        type: 'post',
        status: 'paid',
        createdAt: daysBefore(1).toISOString(),
        txHash: 'sig',
        payoutId: 'p1',
        submissionName: 'Best clip',
        holdReasons: [],
      },
    ]);
    expect(answer.nextCursor).toEqual(expect.any(String));
  });

  it('shows a held earning with its reasons, and a voided one with the admin’s reason but not who (ADR 0050)', async () => {
    const f = setup();
    const heldAt = daysBefore(1);
    const decidedAt = daysBefore(0);
    f.earnings.page.mockResolvedValue([
      earning('e2', { status: 'held', holdReasons: ['It duplicates a clip you submitted earlier.'], heldAt }),
      earning('e1', {
        status: 'voided',
        holdReasons: ['Its video matches a clip submitted earlier by another clipper.'],
        heldAt,
        decision: { decision: 'voided', by: 'admin-token-1', reason: 'A copy of another clipper’s clip', at: decidedAt },
      }),
    ]);
    f.submissions.nameOf.mockResolvedValue(new Map());
    const answer = await f.service.listEarnings({ userId: CLIPPER_ID, limit: 5 });
    expect(answer.earnings.map(({ status, holdReasons, heldAt: at, decision }) => ({ status, holdReasons, heldAt: at, decision }))).toEqual(
      [
        { status: 'held', holdReasons: ['It duplicates a clip you submitted earlier.'], heldAt: heldAt.toISOString(), decision: undefined },
        {
          status: 'voided',
          holdReasons: ['Its video matches a clip submitted earlier by another clipper.'],
          heldAt: heldAt.toISOString(),
          decision: { decision: 'voided', reason: 'A copy of another clipper’s clip', at: decidedAt.toISOString() },
        },
      ],
    );
  });

  it('pages the public ledger by paid time (20 when no limit is asked), optionally one clipper’s', async () => {
    const f = setup();
    const paid: PayoutRow = {
      id: 'p1',
      userId: CLIPPER_ID,
      periodStart: daysBefore(14),
      periodEnd: daysBefore(7),
      walletAddress: 'wallet',
      amount: '40.500000',
      earningsCount: 3,
      status: 'paid',
      driver: 'ledger',
      reference: 'ref',
      txHash: 'sig',
      createdAt: daysBefore(6),
      paidAt: daysBefore(5),
    };
    f.payouts.ledger.mockResolvedValue([paid]);
    const answer = await f.service.listPayouts({ userId: CLIPPER_ID, limit: 0 });
    expect(f.payouts.ledger).toHaveBeenCalledWith(reader, undefined, 21, CLIPPER_ID);
    expect(answer).toEqual({
      payouts: [
        {
          id: 'p1',
          periodStart: paid.periodStart.toISOString(),
          periodEnd: paid.periodEnd.toISOString(),
          walletAddress: 'wallet',
          amount: '40.5',
          txHash: 'sig',
          driver: 'ledger',
          paidAt: paid.paidAt!.toISOString(),
          earningsCount: 3,
        },
      ],
    });
  });

  it('lists the tiers as the table holds them, rates as decimal strings', async () => {
    const f = setup();
    const { tiers } = await f.service.listTiers();
    expect(tiers.map((t) => [t.name, t.ratePerPost, t.minTotalApproved])).toEqual([
      ['Bronze', '10', 0],
      ['Silver', '15', 10],
      ['Gold', '25', 25],
      ['Diamond', '40', 50],
    ]);
  });
});

import type { rewardsV1 } from '@clipit/contracts';
import { decodeCursor, invalid, keysetPage, pageSize, uuidOrUndefined, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { normalizeAmount } from '../domain/amount.js';
import { holdReason, holdUntil } from '../domain/hold.js';
import { messages } from '../domain/messages.js';
import { metricsOf, NO_POINTS, tierProgress } from '../domain/rules.js';
import { clipperTierOf, lockedFeatures } from '../domain/standing.js';
import { EarningRepository } from '../repositories/earning.repository.js';
import { PayoutRepository, type PayoutRow } from '../repositories/payout.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { StandingRepository, type Standing } from '../repositories/standing.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { DirectoryService } from './directory.service.js';
import { StandingService } from './standing.service.js';

/** Spec 02 §9: the activity window of the stat cards, and 'This Week'. */
export const ACTIVITY_WINDOW_WEEKS = 4;
export const THIS_WEEK_DAYS = 7;
/** How many recent submissions the dashboard lists. */
export const RECENT_SUBMISSIONS = 20;
const PAGE_DEFAULT = 20;
const PAGE_MAX = 100;

function userIdOf(raw: string): string {
  const id = uuidOrUndefined(raw);
  if (!id) throw invalid(messages.invalidUserId);
  return id;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** What the dashboard, the points card, the Earnings tab and the public payout ledger read. */
@Injectable()
export class RewardsQueryService {
  constructor(
    private readonly tables: TiersRepository,
    private readonly standings: StandingRepository,
    private readonly submissions: SubmissionRepository,
    private readonly earnings: EarningRepository,
    private readonly payouts: PayoutRepository,
    private readonly people: PeopleRepository,
    private readonly standing: StandingService,
    private readonly directory: DirectoryService,
    private readonly transactions: TransactionRunner,
  ) {}

  async dashboard(request: rewardsV1.GetDashboardRequest, now = new Date()): Promise<rewardsV1.Dashboard> {
    const userId = userIdOf(request.userId);
    const { tiers } = await this.tables.current();
    const tx = this.standings.reader;
    const [standing, facts, totals, recent, hold] = await Promise.all([
      this.standings.find(tx, userId),
      this.submissions.factsOf(tx, userId),
      this.earnings.totals(tx, userId),
      this.submissions.recent(tx, userId, RECENT_SUBMISSIONS),
      this.hold(userId, now),
    ]);
    const currentTier = standing?.currentTier ?? 1;
    const progress = tierProgress(tiers, currentTier, (tier) => metricsOf(facts, tier.windowWeeks, now));
    const window = metricsOf(facts, ACTIVITY_WINDOW_WEEKS, now);
    const weekAgo = now.getTime() - THIS_WEEK_DAYS * 24 * 60 * 60 * 1000;
    return {
      currentTier,
      tierProgress: {
        currentTier: { name: progress.currentTier.name, ratePerClip: normalizeAmount(progress.currentTier.ratePerClip) },
        ...(progress.nextTier
          ? { nextTier: { name: progress.nextTier.name, ratePerClip: normalizeAmount(progress.nextTier.ratePerClip) } }
          : {}),
        progressPercent: progress.progressPercent,
        missingRequirements: progress.missingRequirements,
        meetsNextTierRequirements: progress.meetsNextTierRequirements,
      },
      metrics: {
        totalApproved: window.totalApproved,
        approvedInWindow: window.approvedInWindow,
        approvalRate: window.approvalRate,
        avgViews: window.avgViews,
        approvedThisWeek: facts.approved.filter((c) => c.approvedAt.getTime() >= weekAgo).length,
        windowWeeks: ACTIVITY_WINDOW_WEEKS,
      },
      earningsSummary: {
        paid: normalizeAmount(totals.paid),
        pending: normalizeAmount(totals.pending),
        total: normalizeAmount(totals.total),
        held: normalizeAmount(totals.held),
      },
      recentSubmissions: recent.map((s) => ({
        id: s.id,
        name: s.name,
        platform: s.platform,
        views: s.views,
        createdAt: s.createdAt.toISOString(),
        status: s.status,
        url: s.url,
        ...(s.rejectedReason !== null ? { rejectedReason: s.rejectedReason } : {}),
      })),
      ...(hold ? { hold } : {}),
    };
  }

  /**
   * The hold on the clipper's payouts (ADR 0032) while their wallet was replaced less than 72 hours ago
   * and they have pending earnings not in a payout: from the read model, so it shows before any run.
   */
  private async hold(userId: string, now: Date): Promise<rewardsV1.PayoutHold | undefined> {
    const tx = this.standings.reader;
    const person = await this.people.find(tx, userId);
    const until = holdUntil(person?.walletChangedAt, now);
    if (!person?.walletChangedAt || !until) return undefined;
    const unpaid = await this.earnings.unpaid(tx, userId);
    if (unpaid.count === 0) return undefined;
    return {
      amount: normalizeAmount(unpaid.amount),
      reason: holdReason(person.walletChangedAt, until),
      heldUntil: until.toISOString(),
      walletChangedAt: person.walletChangedAt.toISOString(),
    };
  }

  /** Anyone's stats (the public route): an id that is no user is NOT_FOUND, a user with nothing yet bronze with no points. */
  async stats(request: rewardsV1.GetClipperStatsRequest): Promise<rewardsV1.ClipperStats> {
    const userId = userIdOf(request.userId);
    const standing = await this.standings.find(this.standings.reader, userId);
    // A standing exists only for someone who submitted while signed in: a user, no need to ask.
    if (!standing) await this.directory.requireUser(userId);
    return this.statsOf(standing);
  }

  /** Refresh Points: the clipper's standing recomputed now (the inactivity penalty follows the clock). */
  async refresh(request: rewardsV1.RefreshPointsRequest, now = new Date()): Promise<rewardsV1.ClipperStats> {
    const userId = userIdOf(request.userId);
    const standing = await this.transactions.run((tx) => this.standing.recompute(tx, userId, now));
    return this.statsOf(standing);
  }

  private async statsOf(standing: Standing | undefined): Promise<rewardsV1.ClipperStats> {
    const points = standing?.clipPoints ?? 0;
    const { rank, total } = await this.standings.rankOf(this.standings.reader, points);
    const breakdown = standing?.breakdown ?? { ...NO_POINTS };
    const tier = standing?.clipperTier ?? clipperTierOf(1);
    return {
      points,
      tier,
      rank,
      totalClippers: total,
      breakdown,
      lockedFeatures: lockedFeatures(tier),
      ...(standing?.lastClipPointsUpdate ? { lastUpdated: standing.lastClipPointsUpdate.toISOString() } : {}),
    };
  }

  async listEarnings(request: rewardsV1.ListEarningsRequest): Promise<rewardsV1.EarningsPage> {
    const userId = userIdOf(request.userId);
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const tx = this.standings.reader;
    const rows = await this.earnings.page(tx, userId, before, size + 1);
    const { page, nextCursor } = keysetPage(rows, size);
    const names = await this.submissions.nameOf(
      tx,
      page.map((e) => e.submissionId),
    );
    return {
      earnings: page.map((e) => ({
        id: e.id,
        submissionId: e.submissionId,
        amount: normalizeAmount(e.amount),
        type: e.type,
        status: e.status,
        createdAt: e.createdAt.toISOString(),
        ...(iso(e.periodStart) ? { periodStart: iso(e.periodStart)! } : {}),
        ...(iso(e.periodEnd) ? { periodEnd: iso(e.periodEnd)! } : {}),
        ...(e.txHash ? { txHash: e.txHash } : {}),
        ...(e.payoutId ? { payoutId: e.payoutId } : {}),
        ...(names.has(e.submissionId) ? { submissionName: names.get(e.submissionId)! } : {}),
        // Why it is held, and an admin's decision with their reason but never who (ADR 0050).
        holdReasons: e.holdReasons ?? [],
        ...(e.heldAt ? { heldAt: e.heldAt.toISOString() } : {}),
        ...(e.decision ? { decision: { decision: e.decision.decision, reason: e.decision.reason, at: e.decision.at.toISOString() } } : {}),
      })),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }

  async listPayouts(request: rewardsV1.ListPayoutsRequest): Promise<rewardsV1.PayoutsPage> {
    const userId = request.userId !== undefined ? userIdOf(request.userId) : undefined;
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const rows = await this.payouts.ledger(this.standings.reader, before, size + 1, userId);
    const { page, nextCursor } = keysetPage(
      rows.map((p) => ({ ...p, createdAt: p.paidAt!, id: p.id })),
      size,
    );
    return { payouts: page.map(toPayoutMessage), ...(nextCursor ? { nextCursor } : {}) };
  }

  async listTiers(): Promise<rewardsV1.Tiers> {
    const { tiers } = await this.tables.current();
    return {
      tiers: tiers.map((t) => ({
        level: t.level,
        name: t.name,
        description: t.description,
        ratePerPost: normalizeAmount(t.ratePerPost),
        minTotalApproved: t.minTotalApproved,
        windowWeeks: t.windowWeeks,
        minApprovedInWindow: t.minApprovedInWindow,
        minApprovalRate: t.minApprovalRate,
        minAvgViews: t.minAvgViews,
      })),
    };
  }
}

function toPayoutMessage(p: PayoutRow): rewardsV1.Payout {
  return {
    id: p.id,
    periodStart: p.periodStart.toISOString(),
    periodEnd: p.periodEnd.toISOString(),
    walletAddress: p.walletAddress,
    amount: normalizeAmount(p.amount),
    txHash: p.txHash ?? '',
    driver: p.driver,
    paidAt: p.paidAt!.toISOString(),
    earningsCount: p.earningsCount,
  };
}

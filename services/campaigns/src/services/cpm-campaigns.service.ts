import { randomUUID } from 'node:crypto';
import type { campaignsV1 } from '@clipit/contracts';
import { CAMPAIGN_MESSAGES, checkCampaign, firstCampaignError } from '@clipit/field-rules';
import {
  decodeCursor,
  failedPrecondition,
  forbidden,
  invalid,
  isUuid,
  keysetPage,
  notFound,
  Outbox,
  pageSize,
  uniqueViolation,
  TransactionRunner,
} from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import {
  countingWindow,
  isCampaignStatus,
  newCampaign,
  PAID_CAMPAIGN_TIER,
  reviewed,
  toCampaignMessage,
  toCampaignSnapshot,
  verifiedViews,
  type Campaign,
} from '../domain/campaign.js';
import { MESSAGES, REJECTION_REASON_MAX } from '../domain/messages.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;
const ONE_RUNNING_INDEX = 'cpm_campaigns_one_running_idx';

/** CPM campaigns (spec 02 §2.5, ADR 0027): streamers submit them, admins review them, clips deliver them. */
@Injectable()
export class CpmCampaignsService {
  constructor(
    private readonly repo: CampaignRepository,
    private readonly people: PeopleRepository,
    private readonly clips: ClipRepository,
    private readonly progress: CampaignProgressService,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Stores a pending campaign with its campaign.submitted event, or refuses with the rule's words. */
  async submit(request: campaignsV1.SubmitCampaignRequest, now = new Date()): Promise<campaignsV1.CpmCampaign> {
    if (request.callerRole !== 'streamer') throw forbidden(CAMPAIGN_MESSAGES.streamersOnly);
    if (!isUuid(request.streamerId)) throw invalid(MESSAGES.invalidStreamerId);
    const checked = checkCampaign(request, 'shared');
    if (!checked.ok) throw invalid(firstCampaignError(checked.errors) ?? 'Invalid campaign');
    const campaign = newCampaign(randomUUID(), request.streamerId.toLowerCase(), checked.value, now);
    await this.transactions.run(async (tx) => {
      await this.repo.insert(tx, campaign);
      await this.outbox.append(tx, 'campaign.submitted', { campaign: toCampaignSnapshot(campaign) });
    });
    return toCampaignMessage(campaign, await this.people.namesOf(campaign.streamerId));
  }

  /**
   * Newest first, keyset-paged, with the total: one streamer's or all, optionally of one status; each with its
   * verified views (issue 37), counted for the whole page in one query.
   */
  async list(request: campaignsV1.ListCampaignsRequest): Promise<campaignsV1.ListCampaignsResponse> {
    const status = request.status || undefined;
    if (status !== undefined && !isCampaignStatus(status)) throw invalid(MESSAGES.unknownCampaignStatus(status));
    const streamerId = request.streamerId || undefined;
    if (streamerId !== undefined && !isUuid(streamerId)) throw invalid(MESSAGES.invalidStreamerId);
    const filter = { streamerId, status };
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const [rows, total] = await Promise.all([this.repo.listPage(filter, size + 1, before), this.repo.count(filter)]);
    const { page, nextCursor } = keysetPage(rows, size);
    const windows = page.flatMap((c) => {
      const window = countingWindow(c);
      return window ? [{ ...window, campaignId: c.id, streamerId: c.streamerId }] : [];
    });
    const views = await this.clips.viewsNotUnderReview(windows, PAID_CAMPAIGN_TIER);
    return {
      campaigns: page.map((c) => ({ ...toCampaignMessage(c, c.names), verifiedViews: verifiedViews(c, views.get(c.id) ?? 0) })),
      ...(nextCursor ? { nextCursor } : {}),
      total,
    };
  }

  /**
   * Approves (it starts counting delivered views) or rejects a pending campaign, with campaign.reviewed.
   * A streamer has at most one running campaign: the unique index decides when two approvals race.
   */
  async review(request: campaignsV1.ReviewCampaignRequest, now = new Date()): Promise<campaignsV1.CpmCampaign> {
    const decision = request.decision;
    if (decision !== 'approve' && decision !== 'reject') throw invalid(MESSAGES.unknownDecision(decision));
    if (!isUuid(request.id)) throw invalid(MESSAGES.invalidCampaignId);
    const reason = decision === 'reject' ? request.reason?.trim() || null : null;
    if (reason !== null && reason.length > REJECTION_REASON_MAX) throw invalid(MESSAGES.reasonTooLong);
    let result: Campaign;
    try {
      result = await this.transactions.run(async (tx) => {
        const campaign = await this.repo.lock(tx, request.id);
        if (!campaign) throw notFound(MESSAGES.campaignNotFound);
        if (campaign.status !== 'pending') throw failedPrecondition(MESSAGES.notPending);
        if (decision === 'approve' && (await this.repo.lockRunning(tx, campaign.streamerId))) throw failedPrecondition(MESSAGES.oneRunning);
        const next = reviewed(campaign, decision, request.reviewedBy?.trim() || 'admin', reason, now);
        await this.repo.save(tx, next);
        await this.outbox.append(tx, 'campaign.reviewed', {
          campaign: toCampaignSnapshot(next),
          decision: decision === 'approve' ? 'approved' : 'rejected',
        });
        // Clips approved from this moment on count; any already known for it are counted at once.
        return decision === 'approve' ? ((await this.progress.recompute(tx, campaign.streamerId, now)) ?? next) : next;
      });
    } catch (err) {
      if (uniqueViolation(err) === ONE_RUNNING_INDEX) throw failedPrecondition(MESSAGES.oneRunning);
      throw err;
    }
    return toCampaignMessage(result, await this.people.namesOf(result.streamerId));
  }
}

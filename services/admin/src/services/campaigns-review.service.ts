import type { adminV1, campaignsV1 } from '@clipit/contracts';
import { invalid } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { CAMPAIGN_REASON_MAX, isCampaignDecision, isCampaignStatus, toAdminCampaign } from '../domain/admin-views.js';
import { messages } from '../domain/messages.js';
import { auditResultOf, ownerFailure } from './owner-failure.js';
import { AuditService } from './audit.service.js';

/**
 * The Campaigns tab (ADR 0027): CPM campaigns, owned by the campaigns service, listed as they are and
 * reviewed there (approve or reject with a reason), each review audited with its result.
 */
@Injectable()
export class CampaignsReviewService {
  constructor(
    @Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient,
    private readonly audit: AuditService,
  ) {}

  async list(request: {
    status?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  }): Promise<adminV1.CampaignPage> {
    const status = request.status || undefined;
    if (status !== undefined && !isCampaignStatus(status)) throw invalid(messages.unknownCampaignStatus(status));
    let page: campaignsV1.ListCampaignsResponse;
    try {
      page = await this.campaigns.listCampaigns({ status, limit: request.limit, cursor: request.cursor });
    } catch (err) {
      throw ownerFailure('campaigns', err);
    }
    return {
      campaigns: (page.campaigns ?? []).map(toAdminCampaign),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      total: Number(page.total ?? 0),
    };
  }

  /** Approves or rejects a pending campaign; `actor` (the admin token's id) is who reviewed it. */
  async review(request: adminV1.ReviewCampaignRequest, actor: string): Promise<adminV1.AdminCampaign> {
    const decision = request.decision;
    if (!isCampaignDecision(decision)) throw invalid(messages.unknownDecision(decision));
    const reason = decision === 'reject' ? request.reason?.trim() || undefined : undefined;
    if (reason !== undefined && reason.length > CAMPAIGN_REASON_MAX) throw invalid(messages.reasonTooLong);
    const action = `${decision}-campaign`;
    const clientIp = request.caller?.clientIp;
    let reviewed: campaignsV1.CpmCampaign;
    try {
      reviewed = await this.campaigns.reviewCampaign({
        id: request.campaignId,
        decision,
        reviewedBy: actor,
        ...(reason !== undefined ? { reason } : {}),
      });
    } catch (err) {
      const failure = ownerFailure('campaigns', err);
      await this.audit.record({ action, target: `campaign ${request.campaignId}`, ...auditResultOf(failure), actor, clientIp });
      throw failure;
    }
    const detail = decision === 'reject' && reviewed.rejectedReason ? `reason: ${reviewed.rejectedReason}` : null;
    await this.audit.record({ action, target: `campaign ${reviewed.id}`, result: 'ok', detail, actor, clientIp });
    return toAdminCampaign(reviewed);
  }
}

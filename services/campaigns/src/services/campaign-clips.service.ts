import type { campaignsV1 } from '@clipit/contracts';
import { decodeCursor, invalid, isUuid, keysetPage, notFound, pageSize } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { countingWindow, PAID_CAMPAIGN_TIER } from '../domain/campaign.js';
import { MESSAGES } from '../domain/messages.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository, type CountedClip } from '../repositories/clip.repository.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 100;

/**
 * The clips a streamer's campaign counts (issue 37): what its delivered views are made of, for its own
 * streamer only. Another streamer's campaign answers as an unknown one does, so its existence is not told.
 */
@Injectable()
export class CampaignClipsService {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly clips: ClipRepository,
  ) {}

  async list(request: campaignsV1.ListCampaignClipsRequest): Promise<campaignsV1.CampaignClipsPage> {
    if (!isUuid(request.streamerId)) throw invalid(MESSAGES.invalidStreamerId);
    if (!isUuid(request.campaignId)) throw invalid(MESSAGES.invalidCampaignId);
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const after = request.cursor ? decodeCursor(request.cursor) : undefined;
    const campaign = await this.campaigns.findById(request.campaignId.toLowerCase());
    if (!campaign || campaign.streamerId !== request.streamerId.toLowerCase()) throw notFound(MESSAGES.campaignNotFound);
    const window = countingWindow(campaign);
    if (!window) return { clips: [] };
    const rows = await this.clips.countedPage(
      campaign.streamerId,
      window,
      PAID_CAMPAIGN_TIER,
      size + 1,
      after && { approvedAt: after.createdAt, submissionId: after.id },
    );
    // The service kit's keyset cursor, over (approved_at, submission_id).
    const { page, nextCursor } = keysetPage(
      rows.map((c) => ({ ...c, createdAt: c.approvedAt, id: c.submissionId })),
      size,
    );
    return { clips: page.map(toClipMessage), ...(nextCursor ? { nextCursor } : {}) };
  }
}

function toClipMessage(c: CountedClip): campaignsV1.CampaignClip {
  return {
    submissionId: c.submissionId,
    clipperId: c.clipperId,
    ...(c.postUrl ? { postUrl: c.postUrl } : {}),
    views: c.views,
    underReview: c.underReview,
    approvedAt: c.approvedAt.toISOString(),
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_CLIENT, SUBMISSIONS_CLIENT, type CampaignsClient, type SubmissionsClient } from '../clients.js';
import { toV1CampaignClip, type V1CampaignClip } from './campaigns.schemas.js';
import type { V1Page } from './v1-paging.js';

/**
 * A page of the clips a streamer's campaign counts, each with its view history: campaigns answers the clips
 * (and refuses another's campaign), submissions the histories of the clips tagged with that streamer (its
 * rule); one call to each per page, never one per clip.
 */
@Injectable()
export class V1CampaignClips {
  constructor(
    @Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient,
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
  ) {}

  async page(streamerId: string, campaignId: string, page: { limit: number; cursor?: string }): Promise<V1Page<V1CampaignClip>> {
    const { clips = [], nextCursor } = await this.campaigns.listCampaignClips({ campaignId, streamerId, ...page });
    const { histories = [] } =
      clips.length > 0
        ? await this.submissions.getTaggedViewHistories({ streamerId, submissionIds: clips.map((c) => c.submissionId) })
        : {};
    const points = new Map(histories.map((h) => [h.submissionId, h.points]));
    return { items: clips.map((c) => toV1CampaignClip(c, points.get(c.submissionId))), nextCursor: nextCursor ?? null };
  }
}

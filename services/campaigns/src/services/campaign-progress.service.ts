import { isUuid, Outbox } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PAID_CAMPAIGN_TIER, progressToAnnounce, toCampaignSnapshot, withProgress, type Campaign } from '../domain/campaign.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository } from '../repositories/clip.repository.js';

/**
 * A running campaign's delivered views (ADR 0027, ADR 0041): the views of its streamer's approved clips
 * approved from the campaign's approval on, by clippers at the gold points tier, capped at the target. Each
 * 10 % step newly crossed publishes campaign.progress once (issue 37); reaching the target completes the
 * campaign and publishes campaign.completed; all in the caller's transaction.
 */
@Injectable()
export class CampaignProgressService {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly clips: ClipRepository,
    private readonly outbox: Outbox,
  ) {}

  /** Recounts the streamer's running campaign, if any; answers it as it now stands. */
  async recompute(tx: EntityManager, streamerId: string, now: Date): Promise<Campaign | undefined> {
    if (!isUuid(streamerId)) return undefined;
    streamerId = streamerId.toLowerCase();
    const running = await this.campaigns.lockRunning(tx, streamerId);
    if (!running?.approvedAt) return undefined;
    const views = await this.clips.approvedViewsSince(tx, streamerId, running.approvedAt, PAID_CAMPAIGN_TIER);
    const next = withProgress(running, views, now);
    if (next.deliveredViews === running.deliveredViews && next.status === running.status) return running;
    await this.campaigns.save(tx, next);
    await this.announce(tx, running, next);
    return next;
  }

  /** campaign.completed at the target; below it, campaign.progress for a 10 % step not told yet (saved with `next`). */
  private async announce(tx: EntityManager, before: Campaign, next: Campaign): Promise<void> {
    const campaign = toCampaignSnapshot(next);
    if (next.status === 'completed') await this.outbox.append(tx, 'campaign.completed', { campaign });
    const percent = progressToAnnounce(before, next);
    if (percent === undefined) return;
    await this.outbox.append(tx, 'campaign.progress', {
      campaign,
      percent,
      deliveredViews: next.deliveredViews,
      targetViews: next.targetViews,
    });
  }
}

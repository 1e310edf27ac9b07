import { Outbox } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, campaign, EARLIER, STREAMER_ID, tx } from '../../test/support/unit-fixtures.js';
import { toCampaignSnapshot } from '../domain/campaign.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';

// A running campaign's delivered views, in the caller's transaction, with the repositories and the outbox
// auto-mocked: recounted from the clips, saved only when it moved, completed with its event at the target.

function setup() {
  const { service, mock } = createTestService(CampaignProgressService);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const campaigns = mock(CampaignRepository);
  campaigns.save.mockResolvedValue(undefined);
  return { service, campaigns, clips: mock(ClipRepository), outbox };
}

const running = () => campaign({ status: 'approved', approvedAt: EARLIER, deliveredViews: 30_000 });

describe('CampaignProgressService.recompute', () => {
  it('saves the views counted since approval and publishes nothing while under the target', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(running());
    f.clips.approvedViewsSince.mockResolvedValue(45_500.7);
    const next = await f.service.recompute(tx, STREAMER_ID.toUpperCase(), AT);
    expect(f.campaigns.lockRunning).toHaveBeenCalledWith(tx, STREAMER_ID);
    // Only gold clippers' clips deliver (ADR 0041).
    expect(f.clips.approvedViewsSince).toHaveBeenCalledWith(tx, STREAMER_ID, EARLIER, 'gold');
    expect(next).toEqual({ ...running(), deliveredViews: 45_500, updatedAt: AT });
    expect(f.campaigns.save).toHaveBeenCalledWith(tx, next!);
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('completes the campaign at its target, capped there, with campaign.completed', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(running());
    f.clips.approvedViewsSince.mockResolvedValue(250_000);
    const next = await f.service.recompute(tx, STREAMER_ID, AT);
    expect(next).toMatchObject({ status: 'completed', deliveredViews: 100_000, completedAt: AT });
    expect(f.campaigns.save).toHaveBeenCalledWith(tx, next!);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'campaign.completed', { campaign: toCampaignSnapshot(next!) });
  });

  it('writes nothing when the count did not move, and answers the campaign as it stands', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(running());
    f.clips.approvedViewsSince.mockResolvedValue(30_000);
    await expect(f.service.recompute(tx, STREAMER_ID, AT)).resolves.toEqual(running());
    expect(f.campaigns.save).not.toHaveBeenCalled();
  });

  it('does nothing for a streamer with no running campaign, or an id that is no uuid', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(undefined);
    await expect(f.service.recompute(tx, STREAMER_ID, AT)).resolves.toBeUndefined();
    await expect(f.service.recompute(tx, 'not-a-streamer', AT)).resolves.toBeUndefined();
    expect(f.campaigns.lockRunning).toHaveBeenCalledTimes(1);
    expect(f.clips.approvedViewsSince).not.toHaveBeenCalled();
  });
});

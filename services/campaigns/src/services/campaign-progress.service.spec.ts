import { Outbox } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, campaign, EARLIER, STREAMER_ID, tx } from '../../test/support/unit-fixtures.js';
import { toCampaignSnapshot, type Campaign } from '../domain/campaign.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';

// A running campaign's delivered views, in the caller's transaction, with the repositories and the outbox
// auto-mocked: recounted from the clips, saved only when it moved, each 10 % step told once with
// campaign.progress, completed with its event at the target.

function setup() {
  const { service, mock } = createTestService(CampaignProgressService);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const campaigns = mock(CampaignRepository);
  campaigns.save.mockResolvedValue(undefined);
  return { service, campaigns, clips: mock(ClipRepository), outbox };
}

// 30 % of its 100,000 views delivered, and told.
const running = (patch: Partial<Campaign> = {}) =>
  campaign({ status: 'approved', approvedAt: EARLIER, deliveredViews: 30_000, announcedProgressStep: 3, ...patch });

/** Recounts STREAMER_ID's campaign, standing at `before`, to `views`; answers what was saved and published. */
async function recount(before: Campaign, views: number) {
  const f = setup();
  f.campaigns.lockRunning.mockResolvedValue(before);
  f.clips.approvedViewsSince.mockResolvedValue(views);
  const next = await f.service.recompute(tx, STREAMER_ID, AT);
  return {
    next,
    saved: f.campaigns.save.mock.calls.map(([, c]) => c),
    published: f.outbox.append.mock.calls.map(([, type, data]) => ({ type, data })),
  };
}

describe('CampaignProgressService.recompute', () => {
  it('saves the views counted since approval and publishes nothing while under the target', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(running());
    f.clips.approvedViewsSince.mockResolvedValue(39_500.7);
    const next = await f.service.recompute(tx, STREAMER_ID.toUpperCase(), AT);
    expect(f.campaigns.lockRunning).toHaveBeenCalledWith(tx, STREAMER_ID);
    // Only gold clippers' clips deliver (ADR 0041).
    expect(f.clips.approvedViewsSince).toHaveBeenCalledWith(tx, STREAMER_ID, EARLIER, 'gold');
    expect(next).toEqual({ ...running(), deliveredViews: 39_500, updatedAt: AT });
    expect(f.campaigns.save).toHaveBeenCalledWith(tx, next!);
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('completes the campaign at its target, capped there, with campaign.completed', async () => {
    const f = setup();
    f.campaigns.lockRunning.mockResolvedValue(running());
    f.clips.approvedViewsSince.mockResolvedValue(250_000);
    const next = await f.service.recompute(tx, STREAMER_ID, AT);
    expect(next).toMatchObject({ status: 'completed', deliveredViews: 100_000, completedAt: AT, announcedProgressStep: 10 });
    expect(f.campaigns.save).toHaveBeenCalledWith(tx, next!);
    // 100 % is campaign.completed only: no campaign.progress beside it, even from 30 %.
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
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
    expect(f.campaigns.save).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });
});

describe('campaign.progress, every 10 % (issue 37)', () => {
  const progressOf = (next: Campaign, percent: number) => ({
    type: 'campaign.progress',
    data: { campaign: toCampaignSnapshot(next), percent, deliveredViews: next.deliveredViews, targetViews: 100_000 },
  });

  it('tells a step crossed once, with the step saved in the same call', async () => {
    const { next, saved, published } = await recount(running(), 41_000);
    expect(next).toMatchObject({ deliveredViews: 41_000, announcedProgressStep: 4 });
    expect(saved).toEqual([next]);
    expect(published).toEqual([progressOf(next!, 40)]);
  });

  it('tells only the highest of several steps crossed at once: 5 % to 35 % is 30 %', async () => {
    const { next, published } = await recount(running({ deliveredViews: 5_000, announcedProgressStep: 0 }), 35_000);
    expect(next).toMatchObject({ announcedProgressStep: 3 });
    expect(published).toEqual([progressOf(next!, 30)]);
  });

  it('tells nothing twice when the views fall back and rise again (a metric correction)', async () => {
    const fell = await recount(running({ deliveredViews: 45_000, announcedProgressStep: 4 }), 25_000);
    expect(fell.next).toMatchObject({ deliveredViews: 25_000, announcedProgressStep: 4 });
    const rose = await recount(fell.next!, 48_000);
    expect(rose.next).toMatchObject({ deliveredViews: 48_000, announcedProgressStep: 4 });
    expect([...fell.published, ...rose.published]).toEqual([]);
    const beyond = await recount(rose.next!, 52_000);
    expect(beyond.published).toEqual([progressOf(beyond.next!, 50)]);
  });

  it('tells nothing while the views stay within the step already told', async () => {
    const { saved, published } = await recount(running({ deliveredViews: 90_500, announcedProgressStep: 9 }), 99_999);
    expect(saved).toHaveLength(1);
    expect(published).toEqual([]);
  });
});

import { status } from '@grpc/grpc-js';
import { encodeCursor } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CAMPAIGN_ID, campaign, CLIPPER_ID, EARLIER, refusal, STREAMER_ID } from '../../test/support/unit-fixtures.js';
import { MESSAGES } from '../domain/messages.js';
import { CampaignRepository } from '../repositories/campaign.repository.js';
import { ClipRepository, type CountedClip } from '../repositories/clip.repository.js';
import { CampaignClipsService } from './campaign-clips.service.js';

// The clips a campaign counts, for its own streamer only, with the repositories auto-mocked: who may read
// them, the window asked for, the keyset page. The SQL (tier, window, order) is the integration tests'.

const OTHER_STREAMER = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';

function setup() {
  const { service, mock } = createTestService(CampaignClipsService);
  return { service, campaigns: mock(CampaignRepository), clips: mock(ClipRepository) };
}

const clip = (n: number, patch: Partial<CountedClip> = {}): CountedClip => ({
  submissionId: `d0000000-0000-4000-8000-00000000000${n}`,
  clipperId: CLIPPER_ID,
  postUrl: `https://x.com/casey/status/${n}`,
  views: 1000 * n,
  underReview: false,
  approvedAt: new Date(AT.getTime() - n * 60_000),
  ...patch,
});

describe('CampaignClipsService.list', () => {
  it('answers the streamer’s running campaign’s counted clips, a page at a time, from its approval on', async () => {
    const f = setup();
    f.campaigns.findById.mockResolvedValue(campaign({ status: 'approved', approvedAt: EARLIER }));
    f.clips.countedPage.mockResolvedValue([clip(1, { underReview: true, postUrl: null }), clip(2), clip(3)]);
    const page = await f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID.toUpperCase(), limit: 2 });
    expect(f.clips.countedPage).toHaveBeenCalledWith(STREAMER_ID, { since: EARLIER, until: null }, 'gold', 3, undefined);
    expect(page.clips).toEqual([
      {
        submissionId: clip(1).submissionId,
        clipperId: CLIPPER_ID,
        views: 1000,
        underReview: true,
        approvedAt: clip(1).approvedAt.toISOString(),
      },
      {
        submissionId: clip(2).submissionId,
        clipperId: CLIPPER_ID,
        postUrl: 'https://x.com/casey/status/2',
        views: 2000,
        underReview: false,
        approvedAt: clip(2).approvedAt.toISOString(),
      },
    ]);
    // The next page starts after the last clip answered, by its approval and id.
    expect(page.nextCursor).toBe(encodeCursor({ createdAt: clip(2).approvedAt, id: clip(2).submissionId }));
    f.clips.countedPage.mockResolvedValue([clip(3)]);
    const next = await f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID, limit: 2, cursor: page.nextCursor! });
    expect(f.clips.countedPage).toHaveBeenLastCalledWith(STREAMER_ID, { since: EARLIER, until: null }, 'gold', 3, {
      approvedAt: clip(2).approvedAt,
      submissionId: clip(2).submissionId,
    });
    expect(next.clips.map((c) => c.submissionId)).toEqual([clip(3).submissionId]);
    expect(next.nextCursor).toBeUndefined();
  });

  it('counts a completed campaign’s clips up to its completion, and none of a campaign never approved', async () => {
    const f = setup();
    f.campaigns.findById.mockResolvedValue(campaign({ status: 'completed', approvedAt: EARLIER, completedAt: AT }));
    f.clips.countedPage.mockResolvedValue([]);
    await f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID });
    expect(f.clips.countedPage).toHaveBeenCalledWith(STREAMER_ID, { since: EARLIER, until: AT }, 'gold', 51, undefined);

    f.clips.countedPage.mockClear();
    f.campaigns.findById.mockResolvedValue(campaign());
    expect(await f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID })).toEqual({ clips: [] });
    expect(f.clips.countedPage).not.toHaveBeenCalled();
  });

  it('answers another streamer’s campaign as an unknown one: 404, nothing read', async () => {
    const f = setup();
    f.campaigns.findById.mockResolvedValue(campaign({ status: 'approved', approvedAt: EARLIER }));
    const notFound = { code: status.NOT_FOUND, message: MESSAGES.campaignNotFound };
    expect(await refusal(f.service.list({ campaignId: CAMPAIGN_ID, streamerId: OTHER_STREAMER }))).toEqual(notFound);
    f.campaigns.findById.mockResolvedValue(undefined);
    expect(await refusal(f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID }))).toEqual(notFound);
    expect(f.clips.countedPage).not.toHaveBeenCalled();
  });

  it('refuses a bad streamer id, a bad campaign id and a cursor it did not write', async () => {
    const f = setup();
    expect(await refusal(f.service.list({ campaignId: CAMPAIGN_ID, streamerId: 'nobody' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidStreamerId,
    });
    expect(await refusal(f.service.list({ campaignId: 'nope', streamerId: STREAMER_ID }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidCampaignId,
    });
    expect(await refusal(f.service.list({ campaignId: CAMPAIGN_ID, streamerId: STREAMER_ID, cursor: 'bm9wZQ' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid cursor',
    });
    expect(f.campaigns.findById).not.toHaveBeenCalled();
  });
});

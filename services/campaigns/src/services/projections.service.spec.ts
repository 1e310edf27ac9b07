import { createTestService, submissionSnapshot, userSnapshot } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, STREAMER_ID, tx } from '../../test/support/unit-fixtures.js';
import { defaultServices } from '../domain/profile.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';
import { ProjectionsService } from './projections.service.js';

// What campaigns does with identity's, rewards' and submissions' events, in the consumer's transaction,
// with the read models auto-mocked: whom a clipper profile is made for, when a new gold clipper is
// offered the three packages, and which streamers' running campaigns a clip's change recounts.

function setup() {
  const { service, mock } = createTestService(ProjectionsService);
  const people = mock(PeopleRepository);
  const profiles = mock(ProfileRepository);
  const progress = mock(CampaignProgressService);
  people.upsertUser.mockResolvedValue(undefined);
  profiles.replaceServices.mockResolvedValue(undefined);
  progress.recompute.mockResolvedValue(undefined);
  const profileEvents = mock(ClipperProfileEventsService);
  profileEvents.changed.mockResolvedValue(undefined);
  return { service, people, profiles, clips: mock(ClipRepository), progress, profileEvents };
}

const standing = { userId: CLIPPER_ID, clipPoints: 1200, clipperTier: 'gold' as const, currentTier: 3, revision: 4, at: AT.toISOString() };

describe('ProjectionsService.onUser', () => {
  it('keeps every person, and makes or refreshes a clipper’s profile with the standing already known', async () => {
    const f = setup();
    const user = userSnapshot('clipper', { id: CLIPPER_ID });
    const known = { clipPoints: 1200, clipperTier: 'gold' as const, revision: 4, at: AT };
    f.people.standingOf.mockResolvedValue(known);
    f.profiles.upsertFromUser.mockResolvedValue(true);
    f.profiles.markFirstGold.mockResolvedValue(false);
    await f.service.onUser({ user }, tx, AT);
    expect(f.people.upsertUser).toHaveBeenCalledWith(tx, user);
    expect(f.profiles.upsertFromUser).toHaveBeenCalledWith(tx, user, known, AT);
    expect(f.profiles.replaceServices).not.toHaveBeenCalled();
    // The profile made or renamed is told (clipper-profile.changed).
    expect(f.profileEvents.changed).toHaveBeenCalledWith(tx, CLIPPER_ID);
  });

  it('tells nothing when the user snapshot is older than the profile’s', async () => {
    const f = setup();
    f.people.standingOf.mockResolvedValue(undefined);
    f.profiles.upsertFromUser.mockResolvedValue(false);
    f.profiles.markFirstGold.mockResolvedValue(false);
    await f.service.onUser({ user: userSnapshot('clipper', { id: CLIPPER_ID }) }, tx, AT);
    expect(f.profileEvents.changed).not.toHaveBeenCalled();
  });

  it('makes no profile for a streamer or an admin', async () => {
    const f = setup();
    await f.service.onUser({ user: userSnapshot('streamer') }, tx, AT);
    await f.service.onUser({ user: userSnapshot('admin') }, tx, AT);
    expect(f.people.upsertUser).toHaveBeenCalledTimes(2);
    expect(f.profiles.upsertFromUser).not.toHaveBeenCalled();
  });
});

describe('ProjectionsService.onStandingChanged', () => {
  it('offers the three packages once, when the clipper first reaches gold', async () => {
    const f = setup();
    f.people.applyStanding.mockResolvedValue({ applied: true, previousTier: 'gold' });
    f.profiles.applyStanding.mockResolvedValue(true);
    f.profiles.markFirstGold.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await f.service.onStandingChanged(standing, tx, AT);
    await f.service.onStandingChanged({ ...standing, revision: 5 }, tx, AT);
    expect(f.people.applyStanding).toHaveBeenCalledWith(tx, standing);
    expect(f.profiles.replaceServices.mock.calls).toEqual([[tx, CLIPPER_ID, defaultServices(), AT]]);
  });

  it('offers nothing when the profile kept a later revision', async () => {
    const f = setup();
    f.people.applyStanding.mockResolvedValue({ applied: false, previousTier: 'silver' });
    f.profiles.applyStanding.mockResolvedValue(false);
    await f.service.onStandingChanged(standing, tx, AT);
    expect(f.profiles.markFirstGold).not.toHaveBeenCalled();
    expect(f.clips.streamersRunningWith).not.toHaveBeenCalled();
  });

  it.each([
    ['reaching gold', 'silver', 'gold'],
    ['leaving gold', 'gold', 'silver'],
    ['a first standing at gold', undefined, 'gold'],
  ] as const)(
    'recounts the running campaigns the clipper’s clips deliver to on %s (ADR 0041)',
    async (_case, previousTier, clipperTier) => {
      const f = setup();
      f.people.applyStanding.mockResolvedValue({ applied: true, previousTier });
      f.profiles.applyStanding.mockResolvedValue(false);
      f.clips.streamersRunningWith.mockResolvedValue([STREAMER_ID, 'another']);
      await f.service.onStandingChanged({ ...standing, clipperTier }, tx, AT);
      expect(f.clips.streamersRunningWith).toHaveBeenCalledWith(tx, CLIPPER_ID);
      expect(f.progress.recompute.mock.calls).toEqual([
        [tx, STREAMER_ID, AT],
        [tx, 'another', AT],
      ]);
    },
  );

  it.each([
    ['bronze to silver', 'bronze', 'silver'],
    ['gold to gold (points only)', 'gold', 'gold'],
  ] as const)('recounts nothing from %s: what the clips deliver is unchanged', async (_case, previousTier, clipperTier) => {
    const f = setup();
    f.people.applyStanding.mockResolvedValue({ applied: true, previousTier });
    f.profiles.applyStanding.mockResolvedValue(false);
    await f.service.onStandingChanged({ ...standing, clipperTier }, tx, AT);
    expect(f.clips.streamersRunningWith).not.toHaveBeenCalled();
    expect(f.progress.recompute).not.toHaveBeenCalled();
  });
});

describe('ProjectionsService.onSubmission', () => {
  it('notes an approved clip and recounts the running campaign of its streamer and of the one it was tagged with before', async () => {
    const f = setup();
    const before = '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b';
    const clip = submissionSnapshot({ userId: CLIPPER_ID, streamerId: STREAMER_ID, approvedAt: AT.toISOString() });
    f.clips.upsert.mockResolvedValue({ applied: true, previousStreamerId: before });
    f.profiles.noteApprovedClip.mockResolvedValue(undefined);
    await f.service.onSubmission({ submission: clip }, tx, AT);
    expect(f.profiles.noteApprovedClip).toHaveBeenCalledWith(tx, CLIPPER_ID, AT.toISOString());
    expect(f.progress.recompute.mock.calls).toEqual([
      [tx, STREAMER_ID, AT],
      [tx, before, AT],
    ]);
  });

  it('recounts a streamer once, notes no approval for a pending clip, and ignores an event older than the row', async () => {
    const f = setup();
    const pending = submissionSnapshot({ status: 'pending', approvedAt: null, streamerId: STREAMER_ID });
    f.clips.upsert.mockResolvedValueOnce({ applied: true, previousStreamerId: STREAMER_ID });
    await f.service.onSubmission({ submission: pending }, tx, AT);
    expect(f.progress.recompute.mock.calls).toEqual([[tx, STREAMER_ID, AT]]);

    f.clips.upsert.mockResolvedValueOnce({ applied: false, previousStreamerId: null });
    await f.service.onSubmission({ submission: submissionSnapshot({ streamerId: STREAMER_ID }) }, tx, AT);
    expect(f.progress.recompute).toHaveBeenCalledTimes(1);
    expect(f.profiles.noteApprovedClip).not.toHaveBeenCalled();
  });
});

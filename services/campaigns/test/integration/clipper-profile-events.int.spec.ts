import type { ClipperProfileChangedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ClipperProfileEventsService } from '../../src/services/clipper-profile-events.service.js';
import { startCampaigns, userSnapshot, type CampaignsHarness } from '../support/campaigns-harness.js';

// clipper-profile.changed through the real outbox and NATS (ADR 0042): the whole public snapshot, published
// when a profile is made or renamed from identity's events and on the owner's edit, with a revision that
// grows by one per change; an older user snapshot changes nothing and tells nothing; profiles made before
// the event existed are told once at start-up.

let h: CampaignsHarness;
beforeAll(async () => {
  h = await startCampaigns();
});
afterAll(async () => {
  await h?.stop();
});

const toldOf = (userId: string) =>
  h.events
    .filter((e) => e.envelope.type === 'clipper-profile.changed')
    .map((e) => e.envelope.data as ClipperProfileChangedV1)
    .filter((d) => d.profile.userId === userId);
const until = (userId: string, n: number) =>
  waitFor(async () => (toldOf(userId).length >= n ? toldOf(userId) : undefined), 10_000, `${n} profile event(s)`);

describe('clipper-profile.changed', () => {
  it('tells a profile made, renamed and edited, whole and in revision order; nothing for an older snapshot', async () => {
    const user = userSnapshot('clipper', { displayName: 'Casey', profileImageUrl: null });
    await h.feed('user.registered', { user, claimedPlaceholderId: null });
    const [made] = await until(user.id, 1);
    const profileId = (await h.client.getClipperProfile({ userId: user.id })).id;
    expect(made).toEqual({
      profile: {
        id: profileId,
        userId: user.id,
        displayName: 'Casey',
        profileImageUrl: null,
        averageRating: 0,
        totalReviews: 0,
        totalHires: 0,
        isAvailable: 'true',
        updatedAt: expect.any(String),
      },
      revision: 1,
    });

    const renamed = {
      ...user,
      displayName: 'Casey Cuts',
      profileImageUrl: '/media/avatars/c.jpg',
      updatedAt: new Date(Date.now() + 1000).toISOString(),
    };
    await h.feed('user.updated', { user: renamed, changed: ['displayName', 'profileImageUrl'] });
    await h.client.updateClipperProfile({
      userId: user.id,
      isAvailable: 'false',
      setPortfolioUrls: false,
      portfolioUrls: [],
      setSpecialties: false,
      specialties: [],
      setSocialLinks: false,
      socialLinks: [],
      setServices: false,
      services: [],
    });
    // An older snapshot: not applied, not told.
    await h.feed('user.updated', { user: { ...user, displayName: 'Stale' }, changed: ['displayName'] });
    const told = await until(user.id, 3);
    expect(told.map((d) => [d.revision, d.profile.displayName, d.profile.profileImageUrl, d.profile.isAvailable])).toEqual([
      [1, 'Casey', null, 'true'],
      [2, 'Casey Cuts', '/media/avatars/c.jpg', 'true'],
      [3, 'Casey Cuts', '/media/avatars/c.jpg', 'false'],
    ]);
    expect(
      await h.count(
        `SELECT count(*) FROM outbox WHERE type = 'clipper-profile.changed' AND envelope::jsonb #>> '{data,profile,userId}' = $1`,
        [user.id],
      ),
    ).toBe(3);
  });

  it('tells once, at start-up, the profiles made before the event existed, and none twice', async () => {
    const older = userSnapshot('clipper', { displayName: 'Before The Event', profileImageUrl: null });
    await h.feed('user.registered', { user: older, claimedPlaceholderId: null });
    await until(older.id, 1);
    // As a platform older than clipper-profile.changed holds it: a profile never told (revision 0).
    await h.db.query('UPDATE clipper_profiles SET revision = 0 WHERE user_id = $1', [older.id]);
    const before = toldOf(older.id).length;

    // Two replicas' start-up: the profile is told once between them.
    const events = h.app.get(ClipperProfileEventsService);
    const told = await Promise.all([events.tellUntold(1), events.tellUntold(1)]);
    expect(told.reduce((a, b) => a + b, 0)).toBe(1);
    const [again] = (await until(older.id, before + 1)).slice(before);
    expect(again).toMatchObject({ profile: { userId: older.id, displayName: 'Before The Event' }, revision: 1 });
    expect(await events.tellUntold()).toBe(0);
    expect(await h.count('SELECT count(*) FROM clipper_profiles WHERE revision = 0')).toBe(0);
  });
});

import type { UserUpdatedV1 } from '@clipit/contracts';
import { EventPublisher } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, startIdentity, type IdentityHarness } from '../support/identity-harness.js';

// isLive and nextStreamTime belong to the social service; identity mirrors them from social's events
// (ADR 0021) so every user it answers carries them. Against the real Postgres and NATS: each change
// applied once, late events (a lower revision) ignored, each real change told on as user.updated.

let h: IdentityHarness;
let social: EventPublisher;

beforeAll(async () => {
  h = await startIdentity();
  social = new EventPublisher({ nc: h.nc, names: h.names });
});
afterAll(async () => {
  await h?.stop();
});

const at = () => new Date().toISOString();
const updatesFor = (userId: string) =>
  h.events.filter((e) => e.envelope.type === 'user.updated' && (e.envelope.data as UserUpdatedV1).user.id === userId);

async function streamer() {
  const { user } = await h.client.signUp(newSignUp({ role: 'streamer' }));
  return { id: user!.id, displayName: user!.displayName ?? null, twitterUsername: user!.twitterUsername ?? null, profileImageUrl: null };
}

describe('mirroring social', () => {
  it('shows the live state social announced, ignores an older revision arriving late, and tells each change as user.updated', async () => {
    const s = await streamer();
    const live = (isLive: boolean, revision: number) =>
      social.publish('social.live-changed', {
        streamer: s,
        isLive,
        livePeriod: isLive ? revision : null,
        revision,
        notifiedFollowers: 0,
        at: at(),
      });

    await live(true, 1);
    await waitFor(async () => ((await h.client.getUser({ id: s.id })).isLive === 'true' ? true : undefined), 10_000, 'live mirrored');
    await live(false, 3);
    await waitFor(async () => ((await h.client.getUser({ id: s.id })).isLive === 'false' ? true : undefined), 10_000, 'offline mirrored');
    await live(true, 2); // redelivered late: older than what is held
    await live(false, 3); // the same revision again (a second publish of one fact)
    // A later change on another field: once it shows, the two before it were handled.
    const next = new Date(Date.now() + 86_400_000).toISOString();
    await social.publish('social.stream-time-changed', { userId: s.id, nextStreamTime: next, revision: 1, at: at() });
    await waitFor(
      async () => ((await h.client.getUser({ id: s.id })).nextStreamTime === next ? true : undefined),
      10_000,
      'stream time mirrored',
    );

    expect((await h.client.getUser({ id: s.id })).isLive).toBe('false');
    const changes = await waitFor(() => (updatesFor(s.id).length >= 3 ? updatesFor(s.id) : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(
      updatesFor(s.id).map((e) => [(e.envelope.data as UserUpdatedV1).changed, (e.envelope.data as UserUpdatedV1).user.isLive]),
    ).toEqual([
      [['isLive'], 'true'],
      [['isLive'], 'false'],
      [['nextStreamTime'], 'false'],
    ]);
    expect((changes.at(-1)!.envelope.data as UserUpdatedV1).user.nextStreamTime).toBe(next);
    expect(await h.count('SELECT live_revision FROM users WHERE id = $1', [s.id])).toBe(3);
  });

  it('clears the stream time, and drops events about a user it does not have', async () => {
    const s = await streamer();
    const next = new Date(Date.now() + 3_600_000).toISOString();
    await social.publish('social.stream-time-changed', { userId: s.id, nextStreamTime: next, revision: 1, at: at() });
    await social.publish('social.stream-time-changed', { userId: s.id, nextStreamTime: null, revision: 2, at: at() });
    await social.publish('social.stream-time-changed', {
      userId: '00000000-0000-4000-8000-000000000000',
      nextStreamTime: null,
      revision: 1,
      at: at(),
    });
    await waitFor(async () => ((await h.count('SELECT stream_time_revision FROM users WHERE id = $1', [s.id])) === 2 ? true : undefined));
    expect((await h.client.getUser({ id: s.id })).nextStreamTime).toBeUndefined();
  });
});

describe('mirroring rewards', () => {
  it('shows the user tier the rewards service computed, ignores a late lower revision, and tells the change as user.updated', async () => {
    const { user } = await h.client.signUp(newSignUp({ role: 'clipper' }));
    const id = user!.id;
    const standing = (currentTier: number, revision: number) =>
      social.publish('rewards.standing-changed', {
        userId: id,
        clipPoints: 100 * revision,
        clipperTier: currentTier >= 3 ? 'gold' : currentTier === 2 ? 'silver' : 'bronze',
        currentTier,
        revision,
        at: at(),
      });
    await standing(1, 1); // points only: the tier stays 1
    await standing(3, 3);
    await standing(2, 2); // late
    await waitFor(
      async () => ((await h.count('SELECT tier_revision FROM users WHERE id = $1', [id])) === 3 ? true : undefined),
      10_000,
      'tier mirrored',
    );
    expect((await h.client.getUser({ id })).currentTier).toBe(3);
    const changes = await waitFor(() => (updatesFor(id).length >= 1 ? updatesFor(id) : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(
      updatesFor(id).map((e) => [(e.envelope.data as UserUpdatedV1).changed, (e.envelope.data as UserUpdatedV1).user.currentTier]),
    ).toEqual([[['currentTier'], 3]]);
    expect(changes).toHaveLength(1);
  });
});

import { parseEventData, type SocialLiveChangedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { refusal, startSocialAlone, type SocialHarness } from '../support/social-harness.js';

// A streamer's live state and next stream time against the real Postgres and NATS: streamers only, one
// event per real change with a growing revision, followers counted at go-live, once per live period.

let h: SocialHarness;

beforeAll(async () => {
  h = await startSocialAlone();
});
afterAll(async () => {
  await h?.stop();
});

const eventsOf = (type: string, userId: string) =>
  h.events.filter(
    (e) =>
      e.envelope.type === type &&
      ((e.envelope.data as { userId?: string; streamer?: { id: string } }).userId ??
        (e.envelope.data as SocialLiveChangedV1).streamer?.id) === userId,
  );

describe('GoLive and GoOffline', () => {
  it('goes live telling every follower once per live period, and offline, each change one event with a growing revision', async () => {
    const streamer = await h.newUser('streamer', { profileImageUrl: 'https://cdn.example/s.png' });
    for (let i = 0; i < 3; i += 1) await h.client.follow({ followerId: (await h.newUser('clipper')).id, userId: streamer.id });

    await expect(h.client.goLive({ userId: streamer.id })).resolves.toEqual({ notifiedFollowers: 3, state: { isLive: 'true' } });
    await expect(h.client.goLive({ userId: streamer.id })).resolves.toEqual({ notifiedFollowers: 0, state: { isLive: 'true' } });
    await expect(h.client.goOffline({ userId: streamer.id })).resolves.toEqual({ isLive: 'false' });
    await expect(h.client.goOffline({ userId: streamer.id })).resolves.toEqual({ isLive: 'false' });
    await expect(h.client.goLive({ userId: streamer.id })).resolves.toMatchObject({ notifiedFollowers: 3 });

    const events = await waitFor(() =>
      eventsOf('social.live-changed', streamer.id).length >= 3 ? eventsOf('social.live-changed', streamer.id) : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    const data = eventsOf('social.live-changed', streamer.id).map((e) => parseEventData('social.live-changed', e.envelope.data));
    expect(data.map((d) => [d.isLive, d.revision, d.notifiedFollowers])).toEqual([
      [true, 1, 3],
      [false, 2, 0],
      [true, 3, 3],
    ]);
    expect(data[0]!.streamer).toEqual({
      id: streamer.id,
      displayName: streamer.displayName,
      twitterUsername: streamer.twitterUsername,
      profileImageUrl: 'https://cdn.example/s.png',
    });
    expect(data[2]!.livePeriod).toBeGreaterThan(data[0]!.livePeriod!);
    expect(data[1]!.livePeriod).toBeNull();
    expect(events).toHaveLength(3);
  });

  it('refuses a clipper, naming the rule, and records nothing', async () => {
    const clipper = await h.newUser('clipper');
    expect(await refusal(h.client.goLive({ userId: clipper.id }))).toEqual([status.PERMISSION_DENIED, 'Only streamers can go live']);
    expect(await refusal(h.client.goOffline({ userId: clipper.id }))).toEqual([status.PERMISSION_DENIED, 'Only streamers can go offline']);
    expect(await refusal(h.client.setStreamTime({ userId: clipper.id, streamTime: '2030-01-01T20:00:00Z' }))).toEqual([
      status.PERMISSION_DENIED,
      'Only streamers can set a stream time',
    ]);
    expect(await h.count('SELECT count(*) FROM live_states WHERE user_id = $1', [clipper.id])).toBe(0);
  });
});

describe('SetStreamTime', () => {
  it('sets, repeats without an event, clears, and refuses what is not a future zoned time', async () => {
    const streamer = await h.newUser('streamer');
    const at = new Date(Date.now() + 86_400_000);
    at.setUTCMilliseconds(0);
    await expect(h.client.setStreamTime({ userId: streamer.id, streamTime: at.toISOString().replace('Z', '+00:00') })).resolves.toEqual({
      isLive: 'false',
      nextStreamTime: at.toISOString(),
    });
    await h.client.setStreamTime({ userId: streamer.id, streamTime: at.toISOString() });
    await expect(h.client.setStreamTime({ userId: streamer.id })).resolves.toEqual({ isLive: 'false' });
    expect(await refusal(h.client.setStreamTime({ userId: streamer.id, streamTime: 'tonight' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Stream time must be a date and time with a time zone (ISO 8601), or null to clear it',
    ]);
    expect(await refusal(h.client.setStreamTime({ userId: streamer.id, streamTime: '2020-01-01T00:00:00Z' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Stream time must be in the future',
    ]);

    await waitFor(() => (eventsOf('social.stream-time-changed', streamer.id).length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    const data = eventsOf('social.stream-time-changed', streamer.id).map((e) =>
      parseEventData('social.stream-time-changed', e.envelope.data),
    );
    expect(data.map((d) => [d.nextStreamTime, d.revision])).toEqual([
      [at.toISOString(), 1],
      [null, 2],
    ]);
  });
});

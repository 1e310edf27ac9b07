import type { socialV1 } from '@clipit/contracts';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// Follows, likes, live state and stream time (spec 01 §3, §7; spec 02 §3, §7). The rules are the social
// service's; these are the shapes the browser sends and reads.

export const followStateSchema = z.object({ isFollowing: z.boolean() }).meta({ id: 'FollowState' });
export type FollowStateJson = z.infer<typeof followStateSchema>;

export const followChangeSchema = z
  .object({ isFollowing: z.boolean(), followerCount: z.number().int().describe("The streamer's follower count after the change") })
  .meta({ id: 'FollowChange' });
export type FollowChangeJson = z.infer<typeof followChangeSchema>;

export const followerCountSchema = z.object({ count: z.number().int() }).meta({ id: 'FollowerCount' });
export type FollowerCountJson = z.infer<typeof followerCountSchema>;

/** Spec 02 §3 follower list item; also spec 01 §3 live streamer item. */
export const personSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullable(),
    twitterUsername: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
  })
  .meta({ id: 'FollowerListItem' });
export type PersonJson = z.infer<typeof personSchema>;

export const followersPageSchema = z
  .object({
    followers: z.array(personSchema).describe('Newest followers first'),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last'),
    total: z.number().int(),
  })
  .meta({ id: 'FollowersPage' });
export type FollowersPageJson = z.infer<typeof followersPageSchema>;

export const liveStreamerSchema = personSchema.meta({ id: 'LiveStreamer' });
export const liveStreamersSchema = z.array(liveStreamerSchema).meta({ id: 'LiveStreamers' });

export const likeStateSchema = z.object({ likeCount: z.number().int(), likedByCurrentUser: z.boolean() }).meta({ id: 'LikeState' });
export type LikeStateJson = z.infer<typeof likeStateSchema>;

export const streamTimeBody = strictBody({
  streamTime: z
    .string({ error: 'Stream time must be a date and time with a time zone (ISO 8601), or null to clear it' })
    .max(64, 'Stream time must be a date and time with a time zone (ISO 8601), or null to clear it')
    .nullable()
    .describe('ISO 8601 with a zone; null clears it'),
});
export type StreamTimeBody = z.output<typeof streamTimeBody>;

export const streamStateSchema = z
  .object({
    isLive: z.enum(['true', 'false']),
    nextStreamTime: z.string().nullable().describe('ISO 8601'),
  })
  .meta({ id: 'StreamState' });
export type StreamStateJson = z.infer<typeof streamStateSchema>;

export const goLiveSchema = streamStateSchema.extend({ notifiedFollowers: z.number().int() }).meta({ id: 'GoLiveResult' });
export type GoLiveJson = z.infer<typeof goLiveSchema>;

const orNull = (v: string | null | undefined): string | null => v ?? null;

export function toPersonJson(p: socialV1.Person): PersonJson {
  return {
    id: p.id,
    displayName: orNull(p.displayName),
    twitterUsername: orNull(p.twitterUsername),
    profileImageUrl: orNull(p.profileImageUrl),
  };
}

export function toStreamStateJson(s: socialV1.StreamState | undefined): StreamStateJson {
  return { isLive: s?.isLive === 'true' ? 'true' : 'false', nextStreamTime: orNull(s?.nextStreamTime) };
}

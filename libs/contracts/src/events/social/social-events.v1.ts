import { z } from 'zod';

const at = z.iso.datetime({ offset: true });

/** A person as social events carry them: the fields a follower list or a live notification shows. */
export const socialPersonSchema = z.object({
  id: z.uuid(),
  displayName: z.string().nullable(),
  twitterUsername: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type SocialPerson = z.infer<typeof socialPersonSchema>;

const followChange = z.object({
  followerId: z.uuid(),
  /** The streamer followed or unfollowed. */
  userId: z.uuid(),
  /** The streamer's follower count after the change. */
  followerCount: z.number().int().nonnegative(),
  at,
});

/** followerId started following userId (only a real change is published: a repeated follow is not). */
export const socialFollowedV1 = followChange;
export type SocialFollowedV1 = z.infer<typeof socialFollowedV1>;

/** followerId stopped following userId. */
export const socialUnfollowedV1 = followChange;
export type SocialUnfollowedV1 = z.infer<typeof socialUnfollowedV1>;

const likeChange = z.object({
  userId: z.uuid(),
  clipId: z.uuid(),
  /** The clipper who submitted the clip (rewards count likes received). */
  clipOwnerId: z.uuid(),
  /** The clip's like count after the change. */
  likeCount: z.number().int().nonnegative(),
  at,
});

/** userId liked clipId (a repeated like is not published). */
export const socialLikedV1 = likeChange;
export type SocialLikedV1 = z.infer<typeof socialLikedV1>;

/** userId took back their like of clipId. */
export const socialUnlikedV1 = likeChange;
export type SocialUnlikedV1 = z.infer<typeof socialUnlikedV1>;

/**
 * A streamer went live or offline. `revision` grows with each change of this streamer's live state, so a
 * read model applies an event only when its revision is above the one it holds (events may arrive out of
 * order after a redelivery). `livePeriod` numbers a go-live platform-wide (null when offline).
 */
export const socialLiveChangedV1 = z.object({
  streamer: socialPersonSchema,
  isLive: z.boolean(),
  livePeriod: z.number().int().positive().nullable(),
  revision: z.number().int().positive(),
  /** Followers told of a go-live (0 for offline). */
  notifiedFollowers: z.number().int().nonnegative(),
  at,
});
export type SocialLiveChangedV1 = z.infer<typeof socialLiveChangedV1>;

/** A streamer set or cleared their next stream time; `revision` orders this streamer's stream-time changes. */
export const socialStreamTimeChangedV1 = z.object({
  userId: z.uuid(),
  nextStreamTime: at.nullable(),
  revision: z.number().int().positive(),
  at,
});
export type SocialStreamTimeChangedV1 = z.infer<typeof socialStreamTimeChangedV1>;

import type { feedV1 } from '@clipit/contracts';
import { z } from 'zod';

// The public reads (spec 01 §3: feed clip, leaderboard post, leaderboard user entry, featured clipper,
// top streamer, creator entry, clipper profile response; spec 02 §3: tagged video), field for field.
// The feed service keeps the read models; these are the shapes the browser reads.

const textFlag = z.enum(['true', 'false']);
const views = z.number().describe('0 until the post’s X metrics arrive (ADR 0022)');

export const clipAuthorSchema = z
  .object({
    displayName: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    twitterUsername: z.string().nullable(),
    currentTier: z.number().int(),
  })
  .meta({ id: 'ClipAuthor' });

export const clipperProfileSummarySchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    averageRating: z.number(),
    totalHires: z.number().int(),
    isAvailable: textFlag,
  })
  .meta({ id: 'ClipperProfileSummary' });

export const clipTokenSchema = z
  .object({ id: z.string(), name: z.string(), pumpFunLink: z.string().nullable(), streamerId: z.string() })
  .meta({ id: 'ClipToken' });

export const feedClipSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable().describe('The clipper’s words about the clip (up to 150 characters)'),
    url: z.string().describe('The X post'),
    authorHandle: z.string(),
    videoUrl: z.string().nullable(),
    videoDuration: z.number().nullable().describe('Seconds'),
    videoAspectRatio: z.string().nullable().describe('w:h, e.g. 9:16'),
    videoThumbnailUrl: z.string().nullable(),
    hasVideo: textFlag,
    views,
    likes: z.number().describe('Likes of the X post'),
    retweets: z.number(),
    publishedAt: z.string().nullable(),
    userId: z.string(),
    tokenId: z.string().nullable(),
    muxPlaybackId: z.string().nullable().describe('The id the player asks for'),
    likeCount: z.number().int().describe('Likes on CLIP IT'),
    likedByCurrentUser: z.boolean().describe('false for a visitor'),
    user: clipAuthorSchema.nullable(),
    clipperProfile: clipperProfileSummarySchema.nullable().describe('The clipper’s hiring profile; null until campaigns has told of it'),
    token: clipTokenSchema.nullable(),
  })
  .meta({ id: 'FeedClip' });
export type FeedClipJson = z.infer<typeof feedClipSchema>;

export const feedPageSchema = z
  .object({
    submissions: z.array(feedClipSchema).describe('Newest first'),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last'),
  })
  .meta({ id: 'FeedPage' });
export type FeedPageJson = z.infer<typeof feedPageSchema>;

export const leaderboardPostSchema = z
  .object({
    id: z.string(),
    externalId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    videoUrl: z.string().nullable(),
    videoThumbnailUrl: z.string().nullable(),
    muxPlaybackId: z.string().nullable(),
    url: z.string(),
    authorHandle: z.string(),
    likes: z.number(),
    views,
    retweets: z.number(),
    replies: z.number(),
    isProcessing: z.boolean(),
    publishedAt: z.string().nullable(),
    userId: z.string(),
    user: clipAuthorSchema.nullable(),
    clipperProfile: clipperProfileSummarySchema.nullable(),
    token: clipTokenSchema.nullable(),
    hasVideo: textFlag,
  })
  .meta({ id: 'LeaderboardPost' });
export const leaderboardPostsSchema = z.array(leaderboardPostSchema).meta({ id: 'LeaderboardPosts' });

export const leaderboardUserSchema = z
  .object({
    userId: z.string(),
    user: clipAuthorSchema,
    totalViews: z.number(),
    mindshare: z.number().describe('Percent of all approved posts’ views, two decimals; 0 when nothing has views'),
  })
  .meta({ id: 'LeaderboardUser' });
export const leaderboardUsersSchema = z.array(leaderboardUserSchema).meta({ id: 'LeaderboardUsers' });

export const leaderboardStatsSchema = z
  .object({ totalPosts: z.number().int(), activeUsers: z.number().int(), totalViews: z.number() })
  .meta({ id: 'LeaderboardStats' });

export const featuredClipperSchema = z
  .object({
    userId: z.string(),
    displayName: z.string().nullable(),
    twitterUsername: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    bannerImageUrl: z.string().nullable(),
    totalClips: z.number().int(),
    approvedClips: z.number().int(),
    totalViews: z.number(),
    totalLikes: z.number(),
    clipPoints: z.number().optional().describe('Absent until rewards reports points'),
  })
  .meta({ id: 'FeaturedClipper' });
export const featuredClippersSchema = z.array(featuredClipperSchema).meta({ id: 'FeaturedClippers' });

export const topStreamerSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullable(),
    twitterUsername: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    bannerImageUrl: z.string().nullable(),
    followerCount: z.number().int(),
    totalClips: z.number().int().describe('Approved clips tagged with the streamer'),
    multiplier: z
      .number()
      .describe(
        '1.00 to 2.00: the multiplier rewards applies to clips tagged with the streamer (its follower-count step, or the one an admin set)',
      ),
  })
  .meta({ id: 'TopStreamer' });
export const topStreamersSchema = z.array(topStreamerSchema).meta({ id: 'TopStreamers' });

export const creatorSchema = z
  .object({
    userId: z.string(),
    twitterUsername: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    verified: z.boolean().describe('A real account, not a profile waiting to be claimed'),
    followers: z.number().int(),
    totalClips: z.number().int().describe('Approved clips: their own (clippers) or tagged with them (streamers)'),
    totalViews: z.number(),
    avgViews: z.number(),
    clipPoints: z.number().nullable().optional().describe('Clippers only; null until rewards reports points'),
  })
  .meta({ id: 'Creator' });
export const creatorsSchema = z.array(creatorSchema).meta({ id: 'Creators' });

export const profileSubmissionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    videoUrl: z.string().nullable(),
    videoDuration: z.number().nullable(),
    videoThumbnailUrl: z.string().nullable(),
    views,
    likes: z.number(),
    retweets: z.number(),
    url: z.string(),
  })
  .meta({ id: 'ProfileSubmission' });

export const clipperProfileSchema = z
  .object({
    user: z.object({
      id: z.string(),
      role: z.string(),
      displayName: z.string().nullable(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      twitterUsername: z.string().nullable(),
      profileImageUrl: z.string().nullable(),
      bannerImageUrl: z.string().nullable(),
      isLive: textFlag,
      currentTier: z.number().int(),
    }),
    stats: z.object({
      totalClips: z.number().int().describe('Every submission, whatever its status'),
      approvedClips: z.number().int(),
      totalViews: z.number(),
      totalLikes: z.number(),
      avgViews: z.number(),
      followerCount: z.number().int(),
    }),
    submissions: z.array(profileSubmissionSchema).describe('Approved only, newest first'),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ClipperProfile' });
export type ClipperProfileJson = z.infer<typeof clipperProfileSchema>;

export const taggedVideoSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    muxPlaybackId: z.string().nullable(),
    videoThumbnailUrl: z.string().nullable(),
    status: z.string(),
    views,
    likes: z.number(),
  })
  .meta({ id: 'TaggedVideo' });
export const taggedVideosSchema = z
  .object({
    videos: z.array(taggedVideoSchema).describe('Newest first; approved only, except for the streamer themself'),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last'),
    total: z.number().int().describe('Every tagged clip the pages go through (approved only, except for the streamer themself)'),
  })
  .meta({ id: 'TaggedVideos' });

// ---- from the feed service's messages to these shapes ----

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

function author(u: feedV1.ClipUser | undefined): z.infer<typeof clipAuthorSchema> | null {
  if (!u) return null;
  return {
    displayName: orNull(u.displayName),
    firstName: orNull(u.firstName),
    lastName: orNull(u.lastName),
    profileImageUrl: orNull(u.profileImageUrl),
    twitterUsername: orNull(u.twitterUsername),
    currentTier: u.currentTier,
  };
}

function clipperProfile(p: feedV1.ClipperProfileSummary | undefined): z.infer<typeof clipperProfileSummarySchema> | null {
  if (!p) return null;
  return {
    id: p.id,
    displayName: p.displayName,
    profileImageUrl: orNull(p.profileImageUrl),
    averageRating: p.averageRating,
    totalHires: p.totalHires,
    isAvailable: p.isAvailable ? 'true' : 'false',
  };
}

function token(t: feedV1.ClipToken | undefined): z.infer<typeof clipTokenSchema> | null {
  return t ? { id: t.id, name: t.name, pumpFunLink: orNull(t.pumpFunLink), streamerId: t.streamerId } : null;
}

export function toFeedClipJson(c: feedV1.Clip, likedByCurrentUser = false): FeedClipJson {
  return {
    id: c.id,
    name: c.name,
    description: orNull(c.description),
    url: c.url,
    authorHandle: c.authorHandle,
    videoUrl: orNull(c.videoUrl),
    videoDuration: orNull(c.videoDuration),
    videoAspectRatio: orNull(c.videoAspectRatio),
    videoThumbnailUrl: orNull(c.videoThumbnailUrl),
    hasVideo: c.hasVideo ? 'true' : 'false',
    views: c.views,
    likes: c.likes,
    retweets: c.retweets,
    publishedAt: orNull(c.publishedAt),
    userId: c.userId,
    tokenId: orNull(c.tokenId),
    muxPlaybackId: orNull(c.playbackId),
    likeCount: c.likeCount,
    likedByCurrentUser,
    user: author(c.user),
    clipperProfile: clipperProfile(c.clipperProfile),
    token: token(c.token),
  };
}

export function toLeaderboardPostJson(c: feedV1.Clip): z.infer<typeof leaderboardPostSchema> {
  return {
    id: c.id,
    externalId: c.externalId,
    name: c.name,
    description: orNull(c.description),
    videoUrl: orNull(c.videoUrl),
    videoThumbnailUrl: orNull(c.videoThumbnailUrl),
    muxPlaybackId: orNull(c.playbackId),
    url: c.url,
    authorHandle: c.authorHandle,
    likes: c.likes,
    views: c.views,
    retweets: c.retweets,
    replies: c.replies,
    isProcessing: c.isProcessing,
    publishedAt: orNull(c.publishedAt),
    userId: c.userId,
    user: author(c.user),
    clipperProfile: clipperProfile(c.clipperProfile),
    token: token(c.token),
    hasVideo: c.hasVideo ? 'true' : 'false',
  };
}

export function toLeaderboardUserJson(u: feedV1.LeaderboardUser): z.infer<typeof leaderboardUserSchema> {
  const { person, figures } = u.entry!;
  return { userId: person!.id, user: author(person)!, totalViews: figures!.totalViews, mindshare: u.mindshare };
}

export function toFeaturedClipperJson({ person, figures }: feedV1.PersonWithFigures): z.infer<typeof featuredClipperSchema> {
  return {
    userId: person!.id,
    displayName: orNull(person!.displayName),
    twitterUsername: orNull(person!.twitterUsername),
    profileImageUrl: orNull(person!.profileImageUrl),
    bannerImageUrl: orNull(person!.bannerImageUrl),
    totalClips: figures!.totalClips,
    approvedClips: figures!.approvedClips,
    totalViews: figures!.totalViews,
    totalLikes: figures!.totalLikes,
    ...(figures!.clipPoints !== undefined ? { clipPoints: figures!.clipPoints } : {}),
  };
}

export function toTopStreamerJson({ person, figures }: feedV1.PersonWithFigures): z.infer<typeof topStreamerSchema> {
  return {
    id: person!.id,
    displayName: orNull(person!.displayName),
    twitterUsername: orNull(person!.twitterUsername),
    profileImageUrl: orNull(person!.profileImageUrl),
    bannerImageUrl: orNull(person!.bannerImageUrl),
    followerCount: figures!.followerCount,
    totalClips: figures!.taggedClips,
    multiplier: Number(person!.appliedMultiplier),
  };
}

export function toCreatorJson({ person, figures }: feedV1.PersonWithFigures): z.infer<typeof creatorSchema> {
  const streamer = person!.role === 'streamer';
  const clips = streamer ? figures!.taggedClips : figures!.approvedClips;
  const total = streamer ? figures!.taggedViews : figures!.totalViews;
  return {
    userId: person!.id,
    twitterUsername: orNull(person!.twitterUsername),
    profileImageUrl: orNull(person!.profileImageUrl),
    verified: !person!.isPlaceholder,
    followers: figures!.followerCount,
    totalClips: clips,
    totalViews: total,
    avgViews: clips > 0 ? Math.round(total / clips) : 0,
    ...(streamer ? {} : { clipPoints: orNull(figures!.clipPoints) }),
  };
}

export function toClipperProfileJson(p: feedV1.ClipperProfile): ClipperProfileJson {
  const { person, figures } = p.profile!;
  return {
    user: {
      id: person!.id,
      role: person!.role,
      displayName: orNull(person!.displayName),
      firstName: orNull(person!.firstName),
      lastName: orNull(person!.lastName),
      twitterUsername: orNull(person!.twitterUsername),
      profileImageUrl: orNull(person!.profileImageUrl),
      bannerImageUrl: orNull(person!.bannerImageUrl),
      isLive: person!.isLive ? 'true' : 'false',
      currentTier: person!.currentTier,
    },
    stats: {
      totalClips: figures!.totalClips,
      approvedClips: figures!.approvedClips,
      totalViews: figures!.totalViews,
      totalLikes: figures!.totalLikes,
      avgViews: figures!.avgViews,
      followerCount: figures!.followerCount,
    },
    submissions: p.submissions.map((s) => ({
      id: s.id,
      name: s.name,
      status: s.status,
      videoUrl: orNull(s.videoUrl),
      videoDuration: orNull(s.videoDuration),
      videoThumbnailUrl: orNull(s.videoThumbnailUrl),
      views: s.views,
      likes: s.likes,
      retweets: s.retweets,
      url: s.url,
    })),
    nextCursor: orNull(p.nextCursor),
  };
}

export function toTaggedVideosJson(t: feedV1.TaggedVideos): z.infer<typeof taggedVideosSchema> {
  return {
    videos: t.videos.map((v) => ({
      id: v.id,
      name: v.name,
      muxPlaybackId: orNull(v.playbackId),
      videoThumbnailUrl: orNull(v.videoThumbnailUrl),
      status: v.status,
      views: v.views,
      likes: v.likes,
    })),
    nextCursor: orNull(t.nextCursor),
    total: t.total,
  };
}

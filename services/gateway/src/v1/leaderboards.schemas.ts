import type { feedV1 } from '@clipit/contracts';
import { z } from 'zod';
import { v1Page } from './v1-paging.js';

// The public leaderboards as the versioned read API answers them: their own shapes, stable within v1,
// independent of the site's (which follow the spec's pages).

export const v1ClipperRankSchema = z
  .object({
    rank: z.number().int().meta({ description: '1 for the most viewed' }),
    userId: z.string(),
    handle: z.string().nullable().meta({ description: 'The X handle, without @' }),
    displayName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    approvedClips: z.number().int(),
    totalViews: z.number(),
    mindshare: z.number().meta({ description: "Percent of all approved clips' views, two decimals" }),
  })
  .meta({ id: 'V1ClipperRank' });
export type V1ClipperRank = z.infer<typeof v1ClipperRankSchema>;

export const v1ClipRankSchema = z
  .object({
    rank: z.number().int().meta({ description: 'Clips with an uploaded video first, then by views, most first' }),
    clipId: z.string(),
    name: z.string(),
    postUrl: z.string().meta({ description: 'The post on X' }),
    authorHandle: z.string(),
    clipperId: z.string(),
    views: z.number(),
    likes: z.number(),
    retweets: z.number(),
    replies: z.number(),
    hasVideo: z.boolean(),
    videoUrl: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    publishedAt: z.string().nullable(),
  })
  .meta({ id: 'V1ClipRank' });
export type V1ClipRank = z.infer<typeof v1ClipRankSchema>;

export const v1ClipperRankPageSchema = v1Page(v1ClipperRankSchema, 'V1ClipperRankPage');
export const v1ClipRankPageSchema = v1Page(v1ClipRankSchema, 'V1ClipRankPage');

export function toV1ClipperRank(u: feedV1.LeaderboardUser, rank: number): V1ClipperRank {
  const { person, figures } = u.entry!;
  return {
    rank,
    userId: person!.id,
    handle: person!.twitterUsername ?? null,
    displayName: person!.displayName ?? null,
    profileImageUrl: person!.profileImageUrl ?? null,
    approvedClips: figures!.approvedClips,
    totalViews: figures!.totalViews,
    mindshare: u.mindshare,
  };
}

export function toV1ClipRank(c: feedV1.Clip, rank: number): V1ClipRank {
  return {
    rank,
    clipId: c.id,
    name: c.name,
    postUrl: c.url,
    authorHandle: c.authorHandle,
    clipperId: c.userId,
    views: c.views,
    likes: c.likes,
    retweets: c.retweets,
    replies: c.replies,
    hasVideo: c.hasVideo,
    videoUrl: c.videoUrl ?? null,
    thumbnailUrl: c.videoThumbnailUrl ?? null,
    publishedAt: c.publishedAt ?? null,
  };
}

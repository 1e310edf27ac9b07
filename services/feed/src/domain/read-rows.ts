import type { feedV1 } from '@clipit/contracts';
import { averageViews, isProcessing } from './clip-rules.js';

/** A clip row as the read queries select it: the clip, its like count, its author and its token. */
export interface ClipRow {
  id: string;
  user_id: string;
  name: string;
  url: string;
  external_id: string;
  author_handle: string;
  additional_info: string | null;
  token_id: string | null;
  status: string;
  has_video: boolean;
  video_state: string;
  video_url: string | null;
  video_thumbnail_url: string | null;
  video_duration: number | null;
  video_aspect_ratio: string | null;
  playback_id: string | null;
  views: string | number;
  likes: string | number;
  retweets: string | number;
  replies: string | number;
  published_at: Date | null;
  created_at: Date;
  /** The keyset position of the query that selected it (visible_since or created_at). */
  position: Date;
  like_count: number | null;
  p_id: string | null;
  p_display_name: string | null;
  p_first_name: string | null;
  p_last_name: string | null;
  p_profile_image_url: string | null;
  p_twitter_username: string | null;
  p_current_tier: number | null;
  t_id: string | null;
  t_name: string | null;
  t_pump_fun_link: string | null;
  t_streamer_id: string | null;
  cp_id: string | null;
  cp_display_name: string | null;
  cp_profile_image_url: string | null;
  cp_average_rating: string | null;
  cp_total_hires: number | null;
  cp_is_available: boolean | null;
}

/** A person row with figures and follower count, as the people queries select it. */
export interface PersonRow {
  id: string;
  role: string;
  twitter_username: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  banner_image_url: string | null;
  current_tier: number;
  is_live: boolean;
  next_stream_time: string | null;
  streamer_multiplier: string;
  is_placeholder: boolean;
  total_clips: number;
  approved_clips: number;
  total_views: string | number;
  total_likes: string | number;
  tagged_clips: number;
  tagged_views: string | number;
  follower_count: number | null;
  /** rewards' latest standing; null until rewards has told. */
  clip_points: string | number | null;
  /** The multiplier rewards applies; the stored one until rewards has told. */
  applied_multiplier: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function toClip(r: ClipRow): feedV1.Clip {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    externalId: r.external_id,
    authorHandle: r.author_handle,
    description: opt(r.additional_info),
    status: r.status,
    hasVideo: r.has_video,
    isProcessing: isProcessing(r.video_state),
    videoUrl: opt(r.video_url),
    videoThumbnailUrl: opt(r.video_thumbnail_url),
    videoDuration: opt(r.video_duration),
    videoAspectRatio: opt(r.video_aspect_ratio),
    playbackId: opt(r.playback_id),
    views: Number(r.views),
    likes: Number(r.likes),
    retweets: Number(r.retweets),
    replies: Number(r.replies),
    publishedAt: r.published_at ? r.published_at.toISOString() : undefined,
    userId: r.user_id,
    tokenId: opt(r.token_id),
    likeCount: r.like_count ?? 0,
    user: r.p_id
      ? {
          displayName: opt(r.p_display_name),
          firstName: opt(r.p_first_name),
          lastName: opt(r.p_last_name),
          profileImageUrl: opt(r.p_profile_image_url),
          twitterUsername: opt(r.p_twitter_username),
          currentTier: r.p_current_tier ?? 1,
        }
      : undefined,
    token: r.t_id
      ? { id: r.t_id, name: r.t_name ?? '', pumpFunLink: opt(r.t_pump_fun_link), streamerId: r.t_streamer_id ?? '' }
      : undefined,
    createdAt: r.created_at.toISOString(),
    clipperProfile: r.cp_id
      ? {
          id: r.cp_id,
          displayName: r.cp_display_name ?? '',
          profileImageUrl: opt(r.cp_profile_image_url),
          averageRating: Number(r.cp_average_rating ?? 0),
          totalHires: r.cp_total_hires ?? 0,
          isAvailable: r.cp_is_available ?? false,
        }
      : undefined,
  };
}

export function toPersonWithFigures(r: PersonRow): feedV1.PersonWithFigures {
  const totalViews = Number(r.total_views);
  return {
    person: {
      id: r.id,
      role: r.role,
      displayName: opt(r.display_name),
      firstName: opt(r.first_name),
      lastName: opt(r.last_name),
      twitterUsername: opt(r.twitter_username),
      profileImageUrl: opt(r.profile_image_url),
      bannerImageUrl: opt(r.banner_image_url),
      currentTier: r.current_tier,
      isLive: r.is_live,
      nextStreamTime: opt(r.next_stream_time),
      streamerMultiplier: Number(r.streamer_multiplier).toFixed(2),
      isPlaceholder: r.is_placeholder,
      appliedMultiplier: Number(r.applied_multiplier).toFixed(2),
    },
    figures: {
      totalClips: r.total_clips,
      approvedClips: r.approved_clips,
      totalViews,
      totalLikes: Number(r.total_likes),
      avgViews: averageViews(totalViews, r.approved_clips),
      followerCount: r.follower_count ?? 0,
      taggedClips: r.tagged_clips,
      taggedViews: Number(r.tagged_views),
      clipPoints: r.clip_points === null ? undefined : Number(r.clip_points),
    },
  };
}

import type { feedV1 } from '@clipit/contracts';
import { decodeCursor, invalid, isUuid, keysetPage, notFound, pageSize, userFromIdentity } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { CREATOR_TABS, isCreatorTab, mindshare } from '../domain/clip-rules.js';
import { limits, messages } from '../domain/messages.js';
import { toClip, toPersonWithFigures, type ClipRow } from '../domain/read-rows.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { ReadRepository } from '../repositories/read.repository.js';

/** A page of clips from `limit + 1` rows, its cursor naming the last row's position. */
function clipPage(rows: ClipRow[], size: number): { clips: feedV1.Clip[]; nextCursor: string | undefined } {
  const { page, nextCursor } = keysetPage(
    rows.map((r) => ({ row: r, createdAt: r.position, id: r.id })),
    size,
  );
  return { clips: page.map((p) => toClip(p.row)), nextCursor: nextCursor ?? undefined };
}

/** The ranks a leaderboard page skips (the versioned read API's pages): 0 to LEADERBOARD_OFFSET_MAX. */
function rankOffset(offset: number | undefined): number {
  if (offset === undefined || offset === 0) return 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > LEADERBOARD_OFFSET_MAX) throw invalid(messages.invalidCursor);
  return offset;
}

/** The deepest rank a leaderboard page may start at: ranks past it are not paged. */
export const LEADERBOARD_OFFSET_MAX = 10_000;

/** The public reads: each one query on the read models, shaped as spec 01 §3 and spec 02 §3 read them. */
@Injectable()
export class ReadService {
  constructor(
    private readonly reads: ReadRepository,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityPort,
  ) {}

  /** For a replay's check: the same answers, read from another schema. */
  forSchema(schema: string): ReadService {
    return new ReadService(this.reads.forSchema(schema), this.identity);
  }

  async feedClips(req: feedV1.ListFeedClipsRequest): Promise<feedV1.FeedClipsPage> {
    const size = pageSize(req.limit, limits.feed.fallback, limits.feed.max);
    const after = req.cursor ? decodeCursor(req.cursor) : null;
    const { clips, nextCursor } = clipPage(await this.reads.feedClips(size, after), size);
    return { clips, nextCursor };
  }

  async likedAmong(req: feedV1.LikedAmongRequest): Promise<feedV1.ClipIds> {
    if (!isUuid(req.viewerId)) throw invalid(messages.invalidUserId);
    const ids = req.clipIds.filter((id) => isUuid(id)).slice(0, limits.likedAmong);
    return { clipIds: await this.reads.likedAmong(req.viewerId, ids) };
  }

  async leaderboardPosts(req: feedV1.LeaderboardPostsRequest): Promise<feedV1.LeaderboardPostsResponse> {
    const size = pageSize(req.limit, limits.leaderboardPosts.fallback, limits.leaderboardPosts.max);
    return { posts: (await this.reads.leaderboardPosts(size, rankOffset(req.offset))).map(toClip) };
  }

  async leaderboardUsers(req: feedV1.LeaderboardUsersRequest): Promise<feedV1.LeaderboardUsersResponse> {
    const size = pageSize(req.limit, limits.leaderboardUsers.fallback, limits.leaderboardUsers.max);
    const [rows, stats] = await Promise.all([this.reads.leaderboardUsers(size, rankOffset(req.offset)), this.reads.stats()]);
    return {
      users: rows.map((r) => {
        const entry = toPersonWithFigures(r);
        return { entry, mindshare: mindshare(entry.figures!.totalViews, stats.totalViews) };
      }),
    };
  }

  leaderboardStats(): Promise<feedV1.LeaderboardStats> {
    return this.reads.stats();
  }

  async featuredClippers(req: feedV1.FeaturedClippersRequest): Promise<feedV1.FeaturedClippersResponse> {
    const size = pageSize(req.limit, limits.featuredClippers.fallback, limits.featuredClippers.max);
    return { clippers: (await this.reads.featuredClippers(size)).map(toPersonWithFigures) };
  }

  async topStreamers(req: feedV1.TopStreamersRequest): Promise<feedV1.TopStreamersResponse> {
    const size = pageSize(req.limit, limits.topStreamers.fallback, limits.topStreamers.max);
    return { streamers: (await this.reads.topStreamers(size)).map(toPersonWithFigures) };
  }

  async creators(req: feedV1.ListCreatorsRequest): Promise<feedV1.ListCreatorsResponse> {
    if (!isCreatorTab(req.tab)) throw invalid(messages.invalidTab);
    return { creators: (await this.reads.creators(CREATOR_TABS[req.tab])).map(toPersonWithFigures) };
  }

  async clipperProfile(req: feedV1.GetClipperProfileRequest): Promise<feedV1.ClipperProfile> {
    if (!isUuid(req.userId)) throw notFound(messages.clipperNotFound);
    const after = req.cursor ? decodeCursor(req.cursor) : null;
    const size = pageSize(req.limit, limits.profileClips.fallback, limits.profileClips.max);
    const [person, rows] = await Promise.all([this.reads.person(req.userId), this.reads.approvedClipsOf(req.userId, size, after)]);
    if (!person) throw notFound(messages.clipperNotFound);
    const { clips, nextCursor } = clipPage(rows, size);
    return { profile: toPersonWithFigures(person), submissions: clips, nextCursor };
  }

  async taggedVideos(req: feedV1.ListTaggedVideosRequest): Promise<feedV1.TaggedVideos> {
    if (!isUuid(req.userId)) throw invalid(messages.invalidUserId);
    const after = req.cursor ? decodeCursor(req.cursor) : null;
    const size = pageSize(req.limit, limits.taggedVideos.fallback, limits.taggedVideos.max);
    const everyStatus = req.viewerId === req.userId;
    const [known, rows, total] = await Promise.all([
      this.reads.isPerson(req.userId),
      this.reads.taggedClips(req.userId, everyStatus, size, after),
      this.reads.countTaggedClips(req.userId, everyStatus),
    ]);
    // An id the people read model has not heard of is confirmed with identity first (ADR 0037): a streamer
    // who signed up a moment ago has no tagged clips yet, not 'User not found'.
    if (!known) await userFromIdentity(this.identity, req.userId);
    const { clips, nextCursor } = clipPage(rows, size);
    return { videos: clips, nextCursor, total };
  }
}

import { Controller, Inject, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OptionalSession, OptionalSessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { FEED_CLIENT, type FeedClient } from '../clients.js';
import { Endpoint, type EndpointDef } from '../http/endpoint.js';
import { feedRoutes } from './feed.routes.js';
import {
  toClipperProfileJson,
  toCreatorJson,
  toFeaturedClipperJson,
  toFeedClipJson,
  toLeaderboardPostJson,
  toLeaderboardUserJson,
  toTaggedVideosJson,
  toTopStreamerJson,
  type FeedPageJson,
} from './feed.schemas.js';
import { keyOf, sendSharedRead } from './fast-path.js';
import { PublicReadCache, sendJson, serialize } from './read-cache.js';

const size = (limit: string | undefined): number => Number(limit) || 0;

/**
 * The public reads. Each answer comes from the read cache or from one call to the feed service (which
 * owns the read models and their words); a cached one is usually sent before this runs, from the
 * front of the server (publicReadFront) once its URL has been answered here. Signed-in extras (likedByCurrentUser, a streamer's own
 * tagged clips of every status) are built on the cached public answer per request.
 */
@Controller()
export class FeedController {
  constructor(
    @Inject(FEED_CLIENT) private readonly feed: FeedClient,
    private readonly cache: PublicReadCache,
  ) {}

  /** Answers a public read from the cache, or loads it once for every concurrent asker. */
  private async shared(
    route: EndpointDef,
    request: FastifyRequest,
    reply: FastifyReply,
    load: () => Promise<unknown>,
  ): Promise<FastifyReply> {
    const key = keyOf(request, route);
    return sendSharedRead(request, reply, route, key, await this.cache.get(key, load), this.cache);
  }

  @Endpoint(feedRoutes.clips)
  @UseGuards(OptionalSessionGuard)
  async clips(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OptionalSession() session: SessionPrincipal | undefined,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<FastifyReply> {
    const key = keyOf(request, feedRoutes.clips);
    const read = await this.cache.get(key, async (): Promise<FeedPageJson> => {
      const page = await this.feed.listFeedClips({ limit: size(limit), ...(cursor ? { cursor } : {}) });
      return { submissions: page.clips.map((c) => toFeedClipJson(c)), nextCursor: page.nextCursor ?? null };
    });
    if (!session) return sendSharedRead(request, reply, feedRoutes.clips, key, read, this.cache);
    if (read.value.submissions.length === 0) return sendJson(request, reply, read, false);
    const { clipIds } = await this.feed.likedAmong({ viewerId: session.user.id, clipIds: read.value.submissions.map((c) => c.id) });
    const liked = new Set(clipIds);
    const own: FeedPageJson = {
      ...read.value,
      submissions: read.value.submissions.map((c) => (liked.has(c.id) ? { ...c, likedByCurrentUser: true } : c)),
    };
    return sendJson(request, reply, serialize(own), false);
  }

  @Endpoint(feedRoutes.leaderboardPosts)
  leaderboardPosts(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('limit') limit?: string): Promise<FastifyReply> {
    return this.shared(feedRoutes.leaderboardPosts, request, reply, async () =>
      (await this.feed.leaderboardPosts({ limit: size(limit) })).posts.map(toLeaderboardPostJson),
    );
  }

  @Endpoint(feedRoutes.leaderboardUsers)
  leaderboardUsers(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('limit') limit?: string): Promise<FastifyReply> {
    return this.shared(feedRoutes.leaderboardUsers, request, reply, async () =>
      (await this.feed.leaderboardUsers({ limit: size(limit) })).users.map(toLeaderboardUserJson),
    );
  }

  @Endpoint(feedRoutes.leaderboardStats)
  leaderboardStats(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.shared(feedRoutes.leaderboardStats, request, reply, () => this.feed.getLeaderboardStats({}));
  }

  @Endpoint(feedRoutes.featuredClippers)
  featuredClippers(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('limit') limit?: string): Promise<FastifyReply> {
    return this.shared(feedRoutes.featuredClippers, request, reply, async () =>
      (await this.feed.featuredClippers({ limit: size(limit) })).clippers.map(toFeaturedClipperJson),
    );
  }

  @Endpoint(feedRoutes.topStreamers)
  topStreamers(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('limit') limit?: string): Promise<FastifyReply> {
    return this.shared(feedRoutes.topStreamers, request, reply, async () =>
      (await this.feed.topStreamers({ limit: size(limit) })).streamers.map(toTopStreamerJson),
    );
  }

  @Endpoint(feedRoutes.creators)
  creators(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('tab') tab: string): Promise<FastifyReply> {
    return this.shared(feedRoutes.creators, request, reply, async () =>
      (await this.feed.listCreators({ tab })).creators.map(toCreatorJson),
    );
  }

  @Endpoint(feedRoutes.clipperProfile)
  clipperProfile(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('userId') userId: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<FastifyReply> {
    return this.shared(feedRoutes.clipperProfile, request, reply, async () =>
      toClipperProfileJson(await this.feed.getClipperProfile({ userId, limit: size(limit), ...(cursor ? { cursor } : {}) })),
    );
  }

  @Endpoint(feedRoutes.taggedVideos)
  @UseGuards(OptionalSessionGuard)
  async taggedVideos(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OptionalSession() session: SessionPrincipal | undefined,
    @Param('userId') userId: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<FastifyReply> {
    const req = { userId, limit: size(limit), ...(cursor ? { cursor } : {}) };
    // The streamer's own view (every status) is theirs alone: never cached, never shared.
    if (session?.user.id === userId)
      return sendJson(request, reply, serialize(toTaggedVideosJson(await this.feed.listTaggedVideos({ ...req, viewerId: userId }))), false);
    return this.shared(feedRoutes.taggedVideos, request, reply, async () => toTaggedVideosJson(await this.feed.listTaggedVideos(req)));
  }
}

import { Controller, Inject, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { OptionalSession, OptionalSessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { FEED_CLIENT, type FeedClient } from '../clients.js';
import { Endpoint } from '../http/endpoint.js';
import { feedRoutes } from './feed.routes.js';
import { toCreatorJson, toFeaturedClipperJson, toLeaderboardPostJson, toLeaderboardUserJson, toTopStreamerJson } from './feed.schemas.js';
import { page, PublicReads, type PageQuery } from './public-reads.service.js';

/** The public reads, each answered through the read cache by PublicReads (a cached one usually before this runs). */
@Controller()
export class FeedController {
  constructor(
    @Inject(FEED_CLIENT) private readonly feed: FeedClient,
    private readonly reads: PublicReads,
  ) {}

  @Endpoint(feedRoutes.clips)
  @UseGuards(OptionalSessionGuard)
  clips(
    @Res() reply: FastifyReply,
    @OptionalSession() session: SessionPrincipal | undefined,
    @Query() query: PageQuery,
  ): Promise<FastifyReply> {
    return this.reads.clips(reply, session, query);
  }

  @Endpoint(feedRoutes.leaderboardPosts)
  leaderboardPosts(@Res() reply: FastifyReply, @Query() query: PageQuery): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.leaderboardPosts, reply, async () =>
      (await this.feed.leaderboardPosts({ limit: page(query).limit })).posts.map(toLeaderboardPostJson),
    );
  }

  @Endpoint(feedRoutes.leaderboardUsers)
  leaderboardUsers(@Res() reply: FastifyReply, @Query() query: PageQuery): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.leaderboardUsers, reply, async () =>
      (await this.feed.leaderboardUsers({ limit: page(query).limit })).users.map(toLeaderboardUserJson),
    );
  }

  @Endpoint(feedRoutes.leaderboardStats)
  leaderboardStats(@Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.leaderboardStats, reply, () => this.feed.getLeaderboardStats({}));
  }

  @Endpoint(feedRoutes.featuredClippers)
  featuredClippers(@Res() reply: FastifyReply, @Query() query: PageQuery): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.featuredClippers, reply, async () =>
      (await this.feed.featuredClippers({ limit: page(query).limit })).clippers.map(toFeaturedClipperJson),
    );
  }

  @Endpoint(feedRoutes.topStreamers)
  topStreamers(@Res() reply: FastifyReply, @Query() query: PageQuery): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.topStreamers, reply, async () =>
      (await this.feed.topStreamers({ limit: page(query).limit })).streamers.map(toTopStreamerJson),
    );
  }

  @Endpoint(feedRoutes.creators)
  creators(@Res() reply: FastifyReply, @Param('tab') tab: string): Promise<FastifyReply> {
    return this.reads.shared(feedRoutes.creators, reply, async () => (await this.feed.listCreators({ tab })).creators.map(toCreatorJson));
  }

  @Endpoint(feedRoutes.clipperProfile)
  clipperProfile(@Res() reply: FastifyReply, @Param('userId') userId: string, @Query() query: PageQuery): Promise<FastifyReply> {
    return this.reads.clipperProfile(reply, userId, query);
  }

  @Endpoint(feedRoutes.taggedVideos)
  @UseGuards(OptionalSessionGuard)
  taggedVideos(
    @Res() reply: FastifyReply,
    @OptionalSession() session: SessionPrincipal | undefined,
    @Param('userId') userId: string,
    @Query() query: PageQuery,
  ): Promise<FastifyReply> {
    return this.reads.taggedVideos(reply, session, userId, query);
  }
}

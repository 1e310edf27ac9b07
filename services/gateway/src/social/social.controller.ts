import { Controller, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { CurrentSession, OptionalSession, OptionalSessionGuard, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { SOCIAL_CLIENT, type SocialClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { socialRoutes } from './social.routes.js';
import {
  toPersonJson,
  toStreamStateJson,
  type FollowChangeJson,
  type FollowerCountJson,
  type FollowersPageJson,
  type FollowStateJson,
  type GoLiveJson,
  type LikeStateJson,
  type PersonJson,
  type StreamStateJson,
  type StreamTimeBody,
} from './social.schemas.js';

/**
 * Follows, likes, live state and stream time: each route is one call to the social service, which owns
 * the rules (who may follow whom, which clip can be liked, streamers only) and their words.
 */
@Controller()
export class SocialController {
  constructor(@Inject(SOCIAL_CLIENT) private readonly social: SocialClient) {}

  @Endpoint(socialRoutes.followState)
  @UseGuards(OptionalSessionGuard)
  async followState(@Param('userId') userId: string, @OptionalSession() session: SessionPrincipal | undefined): Promise<FollowStateJson> {
    const state = await this.social.getFollowState({ userId, ...(session ? { viewerId: session.user.id } : {}) });
    return { isFollowing: state.isFollowing };
  }

  @Endpoint(socialRoutes.follow)
  @UseGuards(SessionGuard)
  follow(@CurrentSession() session: SessionPrincipal, @Param('userId') userId: string): Promise<FollowChangeJson> {
    return this.social.follow({ followerId: session.user.id, userId });
  }

  @Endpoint(socialRoutes.unfollow)
  @UseGuards(SessionGuard)
  unfollow(@CurrentSession() session: SessionPrincipal, @Param('userId') userId: string): Promise<FollowChangeJson> {
    return this.social.unfollow({ followerId: session.user.id, userId });
  }

  @Endpoint(socialRoutes.followerCount)
  async followerCount(@Param('userId') userId: string): Promise<FollowerCountJson> {
    return { count: (await this.social.getFollowState({ userId })).followerCount };
  }

  @Endpoint(socialRoutes.followersList)
  async followersList(
    @Param('userId') userId: string,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<FollowersPageJson> {
    const page = await this.social.listFollowers({ userId, limit: Number(limit) || 0, ...(cursor ? { cursor } : {}) });
    return { followers: page.followers.map(toPersonJson), nextCursor: page.nextCursor ?? null, total: page.total };
  }

  @Endpoint(socialRoutes.liveFollowed)
  @UseGuards(SessionGuard)
  async liveFollowed(@CurrentSession() session: SessionPrincipal): Promise<PersonJson[]> {
    const { streamers } = await this.social.listLiveFollowed({ userId: session.user.id });
    return streamers.map((s) => toPersonJson(s.streamer!));
  }

  @Endpoint(socialRoutes.like)
  @UseGuards(SessionGuard)
  like(@CurrentSession() session: SessionPrincipal, @Param('clipId') clipId: string): Promise<LikeStateJson> {
    return this.social.like({ userId: session.user.id, clipId });
  }

  @Endpoint(socialRoutes.unlike)
  @UseGuards(SessionGuard)
  unlike(@CurrentSession() session: SessionPrincipal, @Param('clipId') clipId: string): Promise<LikeStateJson> {
    return this.social.unlike({ userId: session.user.id, clipId });
  }

  @Endpoint(socialRoutes.streamTime)
  @UseGuards(SessionGuard)
  async streamTime(@CurrentSession() session: SessionPrincipal, @ValidBody() body: StreamTimeBody): Promise<StreamStateJson> {
    return toStreamStateJson(
      await this.social.setStreamTime({ userId: session.user.id, ...(body.streamTime !== null ? { streamTime: body.streamTime } : {}) }),
    );
  }

  @Endpoint(socialRoutes.goLive)
  @UseGuards(SessionGuard)
  async goLive(@CurrentSession() session: SessionPrincipal): Promise<GoLiveJson> {
    const result = await this.social.goLive({ userId: session.user.id });
    return { ...toStreamStateJson(result.state), notifiedFollowers: result.notifiedFollowers };
  }

  @Endpoint(socialRoutes.goOffline)
  @UseGuards(SessionGuard)
  async goOffline(@CurrentSession() session: SessionPrincipal): Promise<StreamStateJson> {
    return toStreamStateJson(await this.social.goOffline({ userId: session.user.id }));
  }
}

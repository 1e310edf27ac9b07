import { Controller, Inject, Query } from '@nestjs/common';
import { FEED_CLIENT, type FeedClient } from '../clients.js';
import { Endpoint } from '../http/endpoint.js';
import { v1LeaderboardRoutes } from './leaderboards.routes.js';
import { toV1ClipperRank, toV1ClipRank, type V1ClipperRank, type V1ClipRank } from './leaderboards.schemas.js';
import { nextRankCursor, rankPage } from './v1-paging.js';

/** The deepest rank a page may start at: feed's own bound (LEADERBOARD_OFFSET_MAX). */
const DEEPEST_RANK = 10_000;

type Page<T> = { items: T[]; nextCursor: string | null };

/** The public leaderboards for API keys: feed's rankings, paged by position. */
@Controller()
export class V1LeaderboardsController {
  constructor(@Inject(FEED_CLIENT) private readonly feed: FeedClient) {}

  @Endpoint(v1LeaderboardRoutes.clippers)
  async clippers(@Query() query: Record<string, unknown>): Promise<Page<V1ClipperRank>> {
    const { limit, offset } = rankPage(query, DEEPEST_RANK);
    const { users } = await this.feed.leaderboardUsers({ limit, offset });
    return {
      items: users.map((u, i) => toV1ClipperRank(u, offset + i + 1)),
      nextCursor: nextRankCursor(offset, limit, users.length, DEEPEST_RANK),
    };
  }

  @Endpoint(v1LeaderboardRoutes.clips)
  async clips(@Query() query: Record<string, unknown>): Promise<Page<V1ClipRank>> {
    const { limit, offset } = rankPage(query, DEEPEST_RANK);
    const { posts } = await this.feed.leaderboardPosts({ limit, offset });
    return {
      items: posts.map((c, i) => toV1ClipRank(c, offset + i + 1)),
      nextCursor: nextRankCursor(offset, limit, posts.length, DEEPEST_RANK),
    };
  }
}

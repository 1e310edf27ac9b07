import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { SessionPrincipal } from '../auth/session.strategy.js';
import { FEED_CLIENT, type FeedClient } from '../clients.js';
import type { EndpointDef } from '../http/endpoint.js';
import { feedRoutes } from './feed.routes.js';
import { toClipperProfileJson, toFeedClipJson, toTaggedVideosJson, type FeedPageJson } from './feed.schemas.js';
import { keyOf, sendSharedRead } from './fast-path.js';
import { hasPendingWrites } from '../http/pending-writes.js';
import { PersonalPages } from './personal-pages.js';
import { PublicReadCache, sendJson, serialize } from './read-cache.js';

/** `?limit=&cursor=` of a public read, as the feed service takes them (absent or odd: its default). */
export interface PageQuery {
  limit?: unknown;
  cursor?: unknown;
}
export const page = (query: PageQuery) => ({
  limit: Number(query.limit) || 0,
  ...(query.cursor ? { cursor: query.cursor as string } : {}),
});

/**
 * The public reads. Each answer comes from the read cache or from one call to the feed service (which
 * owns the read models and their words); a cached one is usually sent before the route runs, from the
 * front of the server (publicReadFront) once its URL has been answered here. Signed-in extras
 * (likedByCurrentUser, a streamer's own tagged clips of every status) are built on the cached public
 * answer: a reader's likes on a feed page are asked once per page and feed change, and laid over the
 * shared bytes (PersonalPages, ADR 0045).
 */
@Injectable()
export class PublicReads {
  constructor(
    @Inject(FEED_CLIENT) private readonly feed: FeedClient,
    private readonly cache: PublicReadCache,
    private readonly pages: PersonalPages,
  ) {}

  /** Answers a public read from the cache, or loads it once for every concurrent asker. */
  async shared(route: EndpointDef, reply: FastifyReply, load: () => Promise<unknown>): Promise<FastifyReply> {
    // A reader waiting for their own write is answered from the feed itself, which waits for it (ADR 0043).
    if (hasPendingWrites(reply.request.raw)) return sendJson(reply.request, reply, serialize(await load()), false);
    const key = keyOf(reply.request, route);
    return sendSharedRead(reply.request, reply, route, key, await this.cache.get(key, load), this.cache);
  }

  async clips(reply: FastifyReply, session: SessionPrincipal | undefined, query: PageQuery): Promise<FastifyReply> {
    const request = reply.request;
    const load = async (): Promise<FeedPageJson> => {
      const answer = await this.feed.listFeedClips(page(query));
      return { submissions: answer.clips.map((c) => toFeedClipJson(c)), nextCursor: answer.nextCursor ?? null };
    };
    const likedAmong = async (clips: FeedPageJson['submissions']) =>
      session ? (await this.feed.likedAmong({ viewerId: session.user.id, clipIds: clips.map((c) => c.id) })).clipIds : [];
    // A reader waiting for their own write (a like, say) gets the page and their likes from the feed itself,
    // each read waiting until the feed has applied that write (read-your-writes, ADR 0043); nothing is kept.
    if (hasPendingWrites(request.raw)) {
      const fresh = await load();
      const liked = new Set(fresh.submissions.length > 0 ? await likedAmong(fresh.submissions) : []);
      for (const clip of fresh.submissions) clip.likedByCurrentUser = liked.has(clip.id);
      return sendJson(request, reply, serialize(fresh), false);
    }
    const key = keyOf(request, feedRoutes.clips);
    const read = await this.cache.get(key, load);
    if (!session) return sendSharedRead(request, reply, feedRoutes.clips, key, read, this.cache);
    // The URL is noted for the signed-in front too (signed-in-front.ts), which answers it from PersonalPages.
    this.cache.remember(request.raw.url ?? request.url, { key, route: feedRoutes.clips.path, visitorOnly: true });
    if (read.value.submissions.length === 0) return sendJson(request, reply, read, false);
    const answer = await this.pages.get(session.user.id, key, read, () => likedAmong(read.value.submissions));
    return sendJson(request, reply, answer, false);
  }

  clipperProfile(reply: FastifyReply, userId: string, query: PageQuery): Promise<FastifyReply> {
    return this.shared(feedRoutes.clipperProfile, reply, async () =>
      toClipperProfileJson(await this.feed.getClipperProfile({ userId, ...page(query) })),
    );
  }

  async taggedVideos(reply: FastifyReply, session: SessionPrincipal | undefined, userId: string, query: PageQuery): Promise<FastifyReply> {
    const req = { userId, ...page(query) };
    // The streamer's own view (every status) is theirs alone: never cached, never shared.
    if (session?.user.id === userId)
      return sendJson(
        reply.request,
        reply,
        serialize(toTaggedVideosJson(await this.feed.listTaggedVideos({ ...req, viewerId: userId }))),
        false,
      );
    return this.shared(feedRoutes.taggedVideos, reply, async () => toTaggedVideosJson(await this.feed.listTaggedVideos(req)));
  }
}

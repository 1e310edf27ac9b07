import type { socialV1 } from '@clipit/contracts';
import { decodeCursor, invalid, keysetPage, Outbox, pageSize, tooMany, uuidOrUndefined, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { toPersonMessage } from '../domain/person.js';
import { FollowRepository } from '../repositories/follow.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { DirectoryService } from './directory.service.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;
/** How many connected users one FollowersAmong call may ask about (the gateway batches above this). */
export const FOLLOWERS_AMONG_MAX = 5000;

function userId(raw: string): string {
  const id = uuidOrUndefined(raw);
  if (!id) throw invalid(messages.invalidUserId);
  return id;
}

/** Follows (spec 02 §3 followers): a user follows a streamer, never themselves; each pair once. */
@Injectable()
export class FollowsService {
  constructor(
    private readonly follows: FollowRepository,
    private readonly people: PeopleRepository,
    private readonly directory: DirectoryService,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Follows a streamer. A repeat changes nothing and publishes nothing; a real change stores the pair and
   * its social.followed event in one transaction.
   */
  async follow(request: socialV1.FollowRequest, now = new Date()): Promise<socialV1.FollowState> {
    const { followerId, target } = await this.pair(request);
    if (target.role !== 'streamer') throw invalid(messages.followStreamersOnly);
    return this.transactions.run(async (tx) => {
      await this.people.lock(tx, target.id);
      const added = await this.follows.add(tx, followerId, target.id, now);
      const followerCount = await this.follows.count(target.id, tx);
      if (added) await this.outbox.append(tx, 'social.followed', { followerId, userId: target.id, followerCount, at: now.toISOString() });
      return { isFollowing: true, followerCount };
    });
  }

  /** Stops following; not following already is not an error (the button's second press). */
  async unfollow(request: socialV1.UnfollowRequest, now = new Date()): Promise<socialV1.FollowState> {
    const { followerId, target } = await this.pair(request);
    return this.transactions.run(async (tx) => {
      await this.people.lock(tx, target.id);
      const removed = await this.follows.remove(tx, followerId, target.id);
      const followerCount = await this.follows.count(target.id, tx);
      if (removed)
        await this.outbox.append(tx, 'social.unfollowed', { followerId, userId: target.id, followerCount, at: now.toISOString() });
      return { isFollowing: false, followerCount };
    });
  }

  async state(request: socialV1.GetFollowStateRequest): Promise<socialV1.FollowState> {
    const target = await this.directory.require(userId(request.userId));
    const viewer = request.viewerId ? userId(request.viewerId) : undefined;
    const [isFollowing, followerCount] = await Promise.all([
      viewer && viewer !== target.id ? this.follows.isFollowing(viewer, target.id) : Promise.resolve(false),
      this.follows.count(target.id),
    ]);
    return { isFollowing, followerCount };
  }

  /** Newest followers first, keyset-paged, with the total. */
  async list(request: socialV1.ListFollowersRequest): Promise<socialV1.ListFollowersResponse> {
    const target = await this.directory.require(userId(request.userId));
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const [rows, total] = await Promise.all([this.follows.listPage(target.id, size + 1, before), this.follows.count(target.id)]);
    const { page, nextCursor } = keysetPage(
      rows.map((r) => ({ ...r, id: r.followId, person: r })),
      size,
    );
    return { followers: page.map((r) => toPersonMessage(r.person)), ...(nextCursor ? { nextCursor } : {}), total };
  }

  /** The streamers the user follows who are live now. */
  async liveFollowed(request: socialV1.ListLiveFollowedRequest): Promise<socialV1.LiveStreamers> {
    const rows = await this.follows.liveFollowed(userId(request.userId));
    return {
      streamers: rows.map((r) => ({ streamer: toPersonMessage(r), livePeriod: r.livePeriod, liveSince: r.liveSince.toISOString() })),
    };
  }

  async followersAmong(request: socialV1.FollowersAmongRequest): Promise<socialV1.UserIds> {
    if (request.userIds.length > FOLLOWERS_AMONG_MAX) throw tooMany(messages.tooManyIds);
    const candidates = request.userIds.map(uuidOrUndefined).filter((id): id is string => id !== undefined);
    return { userIds: await this.follows.followersAmong(userId(request.streamerId), candidates) };
  }

  private async pair(request: { followerId: string; userId: string }) {
    const followerId = userId(request.followerId);
    const targetId = userId(request.userId);
    if (followerId === targetId) throw invalid(messages.followSelf);
    return { followerId, target: await this.directory.require(targetId) };
  }
}

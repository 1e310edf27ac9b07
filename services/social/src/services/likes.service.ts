import type { socialV1 } from '@clipit/contracts';
import { invalid, notFound, Outbox, uuidOrUndefined, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { ClipRepository, type ClipRow } from '../repositories/clip.repository.js';

/** A clip a visitor can see, and so like: approved and in the feed (spec 01 §2 feed). */
export const isLikeable = (clip: ClipRow): boolean => clip.status === 'approved' && clip.addedToFeed;

/**
 * Likes of feed clips (spec 02 §3 video_likes). The pair row and the clip's count change in one
 * transaction, the count under the clip's row lock, so any number at once end with the exact count.
 */
@Injectable()
export class LikesService {
  constructor(
    private readonly clips: ClipRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Likes a clip in the feed; twice is once (no second row, no second event). The clip's row is locked
   * only from the count's update to the commit, after the pair row is in: likes of one clip wait for each
   * other only that long, and each event carries the count after its own change.
   */
  async like(request: socialV1.LikeRequest, now = new Date()): Promise<socialV1.LikeState> {
    const { userId, clipId } = ids(request);
    return this.transactions.run(async (tx) => {
      const clip = await this.clips.find(tx, clipId);
      if (!clip || !isLikeable(clip)) throw notFound(messages.clipNotFound);
      if (!(await this.clips.addLike(tx, userId, clipId, now)))
        return { likeCount: await this.clips.likeCount(tx, clipId), likedByCurrentUser: true };
      const likeCount = await this.clips.addToCount(tx, clipId, 1);
      await this.outbox.append(tx, 'social.liked', { userId, clipId, clipOwnerId: clip.ownerId, likeCount, at: now.toISOString() });
      return { likeCount, likedByCurrentUser: true };
    });
  }

  /** Takes a like back, also on a clip since removed from the feed; twice is once. */
  async unlike(request: socialV1.UnlikeRequest, now = new Date()): Promise<socialV1.LikeState> {
    const { userId, clipId } = ids(request);
    return this.transactions.run(async (tx) => {
      const clip = await this.clips.find(tx, clipId);
      if (!clip) throw notFound(messages.clipNotFound);
      if (!(await this.clips.removeLike(tx, userId, clipId)))
        return { likeCount: await this.clips.likeCount(tx, clipId), likedByCurrentUser: false };
      const likeCount = await this.clips.addToCount(tx, clipId, -1);
      await this.outbox.append(tx, 'social.unliked', { userId, clipId, clipOwnerId: clip.ownerId, likeCount, at: now.toISOString() });
      return { likeCount, likedByCurrentUser: false };
    });
  }
}

function ids(request: { userId: string; clipId: string }): { userId: string; clipId: string } {
  const userId = uuidOrUndefined(request.userId);
  if (!userId) throw invalid(messages.invalidUserId);
  const clipId = uuidOrUndefined(request.clipId);
  if (!clipId) throw notFound(messages.clipNotFound);
  return { userId, clipId };
}

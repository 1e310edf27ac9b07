import { isInFeed, type socialV1 } from '@clipit/contracts';
import { failedPrecondition, invalid, notFound, Outbox, TransactionRunner, uuidOrUndefined } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { ClipRepository } from '../repositories/clip.repository.js';

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
   * Likes a clip in the feed (@clipit/contracts' isInFeed, the rule the feed lists clips by: approved,
   * added, its video playable); a clip social knows of that is not in it is refused with a reason, an
   * unknown one as not found. Twice is once (no second row, no second event). The clip's row is locked
   * only from the count's update to the commit, after the pair row is in: likes of one clip wait for each
   * other only that long, and each event carries the count after its own change.
   */
  async like(request: socialV1.LikeRequest, now = new Date()): Promise<socialV1.LikeState> {
    const { userId, clipId } = ids(request);
    return this.transactions.run(async (tx) => {
      const clip = await this.clips.find(tx, clipId);
      if (!clip) throw notFound(messages.clipNotFound);
      if (!isInFeed(clip)) throw failedPrecondition(messages.clipNotInFeed);
      if (!(await this.clips.addLike(tx, userId, clipId, now)))
        return { likeCount: await this.clips.likeCount(tx, clipId), likedByCurrentUser: true };
      const likeCount = await this.clips.addToCount(tx, clipId, 1);
      await this.outbox.append(tx, 'social.liked', { userId, clipId, clipOwnerId: clip.ownerId, likeCount, at: now.toISOString() });
      return { likeCount, likedByCurrentUser: true };
    });
  }

  /**
   * Takes a like back, also on a clip no longer in the feed (removed, or its video replaced and being
   * processed): a like given is always the liker's to take back. Twice is once.
   */
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

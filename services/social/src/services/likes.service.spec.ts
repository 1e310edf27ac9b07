import { status } from '@grpc/grpc-js';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { ClipRepository, type ClipRow } from '../repositories/clip.repository.js';
import { LikesService } from './likes.service.js';

const FAN = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const CLIP = '2d8e5e3a-0b2a-4c79-9f65-2e3d0b2c4d33';
const OWNER = '3e9f6f4b-1c3b-4d8a-8a76-3f4e1c3d5e44';
const tx = {} as EntityManager;
const now = new Date('2026-11-25T12:00:00.000Z');
const clip = (patch: Partial<ClipRow> = {}): ClipRow => ({
  id: CLIP,
  ownerId: OWNER,
  status: 'approved',
  addedToFeed: true,
  videoState: 'ready',
  videoUrl: `/media/videos/${CLIP}/video.mp4`,
  likeCount: 4,
  ...patch,
});

function setup(row: ClipRow | undefined) {
  const { service, mock } = createTestService(LikesService);
  const clips = mock(ClipRepository);
  runTransactionsWith(mock(TransactionRunner), tx);
  clips.find.mockResolvedValue(row);
  clips.likeCount.mockResolvedValue(row?.likeCount ?? 0);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, clips, outbox };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);

describe('LikesService', () => {
  it('counts and publishes a new like; a repeated one answers the count as it is', async () => {
    const f = setup(clip());
    f.clips.addLike.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    f.clips.addToCount.mockResolvedValue(5);
    await expect(f.service.like({ userId: FAN, clipId: CLIP }, now)).resolves.toEqual({ likeCount: 5, likedByCurrentUser: true });
    await expect(f.service.like({ userId: FAN, clipId: CLIP }, now)).resolves.toEqual({ likeCount: 4, likedByCurrentUser: true });
    expect(f.clips.addToCount).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.liked', {
      userId: FAN,
      clipId: CLIP,
      clipOwnerId: OWNER,
      likeCount: 5,
      at: now.toISOString(),
    });
  });

  it('refuses a clip the feed does not list (the feed’s own rule), and writes nothing', async () => {
    for (const row of [
      clip({ addedToFeed: false }),
      clip({ status: 'pending', addedToFeed: false }),
      clip({ status: 'rejected' }),
      // Approved and added, but its video is not playable yet: the feed does not list it either.
      clip({ videoState: 'processing', videoUrl: null }),
      clip({ videoState: 'none', videoUrl: null }),
    ]) {
      const f = setup(row);
      expect(await failure(f.service.like({ userId: FAN, clipId: CLIP }))).toMatchObject({
        code: status.FAILED_PRECONDITION,
        message: 'This clip is not in the feed, so it cannot be liked',
      });
      expect(f.clips.addLike).not.toHaveBeenCalled();
    }
  });

  it('refuses an unknown clip as not found, and writes nothing', async () => {
    const f = setup(undefined);
    expect(await failure(f.service.like({ userId: FAN, clipId: CLIP }))).toMatchObject({
      code: status.NOT_FOUND,
      message: 'Clip not found',
    });
    expect(f.clips.addLike).not.toHaveBeenCalled();
    expect(await failure(setup(clip()).service.like({ userId: FAN, clipId: 'nope' }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await failure(setup(clip()).service.like({ userId: 'nope', clipId: CLIP }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid user id',
    });
  });

  it('takes a like back from a clip removed from the feed, and publishes social.unliked once', async () => {
    const f = setup(clip({ addedToFeed: false }));
    f.clips.removeLike.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    f.clips.addToCount.mockResolvedValue(3);
    await expect(f.service.unlike({ userId: FAN, clipId: CLIP }, now)).resolves.toEqual({ likeCount: 3, likedByCurrentUser: false });
    await expect(f.service.unlike({ userId: FAN, clipId: CLIP }, now)).resolves.toEqual({ likeCount: 4, likedByCurrentUser: false });
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.unliked', expect.objectContaining({ likeCount: 3 }));
  });
});

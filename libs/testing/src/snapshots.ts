// Snapshots as identity and submissions publish them, for harnesses that feed a service its events.
import { randomUUID } from 'node:crypto';
import type { SubmissionSnapshot, TokenSnapshot, UserSnapshot } from '@clipit/contracts';

let seq = 0;

/** A user as `user.registered` / `user.updated` carry it; a fresh id and handle unless patched. */
export function userSnapshot(role: UserSnapshot['role'], patch: Partial<UserSnapshot> = {}): UserSnapshot {
  seq += 1;
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    twitterUsername: `person${seq}_${Date.now() % 100000}`,
    displayName: `Person ${seq}`,
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    bannerImageUrl: null,
    walletAddress: null,
    role,
    currentTier: 1,
    isLive: 'false',
    nextStreamTime: null,
    streamerMultiplier: '1.00',
    isPlaceholder: 'false',
    claimedBy: null,
    claimedAt: null,
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

/** An approved submission in the feed as submission events carry it; a fresh id unless patched. */
export function submissionSnapshot(patch: Partial<SubmissionSnapshot> = {}): SubmissionSnapshot {
  const at = new Date().toISOString();
  const id = randomUUID();
  return {
    id,
    userId: randomUUID(),
    name: 'A clip',
    url: `https://x.com/clipper/status/${Date.now()}${seq++}`,
    platform: 'twitter',
    externalId: `${Date.now()}${seq}`,
    authorHandle: 'clipper',
    walletAddress: 'pending',
    additionalInfo: null,
    tokenId: null,
    streamerId: null,
    status: 'approved',
    addedToFeed: true,
    rejectedReason: null,
    approvedAt: at,
    videoState: 'none',
    hasVideo: false,
    videoUrl: null,
    videoThumbnailUrl: null,
    videoDuration: null,
    videoAspectRatio: null,
    playbackId: null,
    views: 0,
    likes: 0,
    retweets: 0,
    replies: 0,
    publishedAt: null,
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

/** A streamer's token as `token.changed` carries it. */
export function tokenSnapshot(streamerId: string, patch: Partial<TokenSnapshot> = {}): TokenSnapshot {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    streamerId,
    name: `Token ${++seq}`,
    pumpFunLink: 'https://pump.fun/coin/example',
    description: null,
    isActive: 'true',
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

import type { identityV1, TokenSnapshot, UserSnapshot } from '@clipit/contracts';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity } from '../entities/user.entity.js';

// Entities become contract messages here and nowhere else. The password hash never leaves, and
// neither does a claim code except to the admin's placeholder list.

const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);
const opt = (v: string | null | undefined): string | undefined => v ?? undefined;

/** numeric(3,2) as two-decimal text, whatever the driver handed back ("1", "1.5", 1.5). */
export function formatMultiplier(value: string | number): string {
  return Number(value).toFixed(2);
}

export function toUserMessage(u: UserEntity): identityV1.User {
  return {
    id: u.id,
    email: opt(u.email),
    displayName: opt(u.displayName),
    firstName: opt(u.firstName),
    lastName: opt(u.lastName),
    profileImageUrl: opt(u.profileImageUrl),
    bannerImageUrl: opt(u.bannerImageUrl),
    walletAddress: opt(u.walletAddress),
    twitterUsername: opt(u.twitterUsername),
    role: u.role,
    currentTier: u.currentTier,
    nextStreamTime: iso(u.nextStreamTime),
    isLive: u.isLive,
    streamerMultiplier: formatMultiplier(u.streamerMultiplier),
    isPlaceholder: u.isPlaceholder,
    claimCode: undefined,
    claimedBy: opt(u.claimedBy),
    claimedAt: iso(u.claimedAt),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    emailVerifiedAt: iso(u.emailVerifiedAt),
    walletChangedAt: iso(u.walletChangedAt),
  };
}

/** The token as `token.changed` carries it. */
export function toTokenSnapshot(t: TokenEntity): TokenSnapshot {
  return {
    id: t.id,
    streamerId: t.streamerId,
    name: t.name,
    pumpFunLink: t.pumpFunLink,
    description: t.description,
    isActive: t.isActive,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The snapshot identity events carry (no email, no hash, no claim code). */
export function toUserSnapshot(u: UserEntity): UserSnapshot {
  return {
    id: u.id,
    twitterUsername: u.twitterUsername,
    displayName: u.displayName,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl,
    bannerImageUrl: u.bannerImageUrl,
    walletAddress: u.walletAddress,
    walletChangedAt: u.walletChangedAt?.toISOString() ?? null,
    role: u.role,
    currentTier: u.currentTier,
    isLive: u.isLive,
    nextStreamTime: u.nextStreamTime?.toISOString() ?? null,
    streamerMultiplier: formatMultiplier(u.streamerMultiplier),
    isPlaceholder: u.isPlaceholder,
    claimedBy: u.claimedBy,
    claimedAt: u.claimedAt?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** A placeholder as the admin list shows it; `claimer` is the account named by claimedBy, when loaded. */
export function toPlaceholderMessage(u: UserEntity, claimer?: UserEntity | null): identityV1.PlaceholderStreamer {
  return {
    id: u.id,
    displayName: u.displayName ?? '',
    twitterUsername: u.twitterUsername ?? '',
    profileImageUrl: opt(u.profileImageUrl),
    bannerImageUrl: opt(u.bannerImageUrl),
    streamerMultiplier: formatMultiplier(u.streamerMultiplier),
    claimCode: u.claimCode ?? '',
    claimedBy: opt(u.claimedBy),
    claimedAt: iso(u.claimedAt),
    claimedByDisplayName: opt(claimer?.displayName),
    claimedByHandle: opt(claimer?.twitterUsername),
    createdAt: u.createdAt.toISOString(),
  };
}

export function toStreamerSummary(u: UserEntity): identityV1.StreamerSummary {
  return { id: u.id, displayName: opt(u.displayName), twitterUsername: opt(u.twitterUsername) };
}

export function toTokenMessage(t: TokenEntity): identityV1.Token {
  return {
    id: t.id,
    streamerId: t.streamerId,
    name: t.name,
    pumpFunLink: opt(t.pumpFunLink),
    description: opt(t.description),
    isActive: t.isActive,
  };
}

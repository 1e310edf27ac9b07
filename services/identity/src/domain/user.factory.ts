import { randomUUID } from 'node:crypto';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity, UserRole } from '../entities/user.entity.js';

const TOKEN_NAME_MAX = 50;

/** Every column a new user row starts with: no profile yet, tier 1, not live, multiplier 1.00, nothing claimed. */
function newUser(id: string, now: Date): UserEntity {
  return {
    id,
    email: null,
    passwordHash: null,
    displayName: null,
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    bannerImageUrl: null,
    walletAddress: null,
    twitterUsername: null,
    role: 'user',
    currentTier: 1,
    nextStreamTime: null,
    isLive: 'false',
    liveRevision: 0,
    streamTimeRevision: 0,
    tierRevision: 0,
    streamerMultiplier: '1.00',
    isPlaceholder: 'false',
    claimCode: null,
    claimedBy: null,
    claimedAt: null,
    xUserId: null,
    xLinkedAt: null,
    emailVerifiedAt: null,
    walletChangedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export interface NewAccount {
  email: string;
  passwordHash: string;
  handle: string;
  walletAddress: string;
  role: UserRole;
  displayName: string | null;
  /** Where the picture given at sign-up is served, if one was. */
  pictureUrl: string | null;
}

/**
 * A person's account. One that claims a placeholder takes over its multiplier, and its display name
 * and images where the person gave none (ADR 0006).
 */
export function newAccount(fields: NewAccount, claimed: UserEntity | null, now: Date, id: string = randomUUID()): UserEntity {
  return {
    ...newUser(id, now),
    email: fields.email,
    passwordHash: fields.passwordHash,
    twitterUsername: fields.handle,
    walletAddress: fields.walletAddress,
    role: fields.role,
    displayName: fields.displayName ?? claimed?.displayName ?? null,
    profileImageUrl: fields.pictureUrl ?? claimed?.profileImageUrl ?? null,
    bannerImageUrl: claimed?.bannerImageUrl ?? null,
    streamerMultiplier: claimed?.streamerMultiplier ?? '1.00',
  };
}

/** An X user as X's /2/users/me answered it, checked (x-account.ts parseXProfile). */
export interface XProfile {
  xUserId: string;
  xUsername: string;
  name: string | null;
  profileImageUrl: string | null;
}

/**
 * The account of a person who signed in with X and had none (ADR 0028): a clipper with the X handle, X's
 * name and picture, no email and no password (password login refuses it), no wallet yet (/connect asks).
 */
export function newXAccount(profile: XProfile, now: Date, id: string = randomUUID()): UserEntity {
  return {
    ...newUser(id, now),
    twitterUsername: profile.xUsername,
    displayName: profile.name,
    profileImageUrl: profile.profileImageUrl,
    role: 'clipper',
    xUserId: profile.xUserId,
    xLinkedAt: now,
  };
}

export interface NewPlaceholder {
  twitterUsername: string;
  displayName: string | null;
  profileImageUrl: string | null;
  bannerImageUrl: string | null;
  streamerMultiplier: string;
}

/** A streamer profile prepared before the streamer has an account: no password (it never logs in), claimed with `claimCode`. */
export function newPlaceholder(fields: NewPlaceholder, claimCode: string, now: Date, id: string = randomUUID()): UserEntity {
  const { twitterUsername, displayName, profileImageUrl, bannerImageUrl, streamerMultiplier } = fields;
  return {
    ...newUser(id, now),
    twitterUsername,
    displayName,
    profileImageUrl,
    bannerImageUrl,
    streamerMultiplier,
    role: 'streamer',
    isPlaceholder: 'true',
    claimCode,
  };
}

/** The token a streamer's sign-up creates from their token link, named after them. */
export function newStreamerToken(streamer: UserEntity, pumpFunLink: string, now: Date, id: string = randomUUID()): TokenEntity {
  return {
    id,
    streamerId: streamer.id,
    name: (streamer.displayName ?? streamer.twitterUsername ?? '').slice(0, TOKEN_NAME_MAX),
    pumpFunLink,
    description: null,
    isActive: 'true',
    createdAt: now,
    updatedAt: now,
  };
}

import { userSnapshotSchema } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity } from '../entities/user.entity.js';
import { formatMultiplier, toPlaceholderMessage, toUserSnapshot, toStreamerSummary, toTokenMessage, toUserMessage } from './user.mapper.js';

const created = new Date('2026-11-01T10:00:00.000Z');
const user: UserEntity = {
  id: '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11',
  email: 'alice@example.com',
  passwordHash: 'scrypt$32768$8$1$salt$hash',
  displayName: 'Alice',
  firstName: null,
  lastName: null,
  profileImageUrl: '/media/profile-images/a.png',
  bannerImageUrl: null,
  walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  twitterUsername: 'Alice',
  role: 'streamer',
  currentTier: 2,
  nextStreamTime: new Date('2026-12-01T18:00:00.000Z'),
  isLive: 'false',
  liveRevision: 0,
  streamTimeRevision: 0,
  tierRevision: 0,
  streamerMultiplier: '1.5',
  isPlaceholder: 'false',
  claimCode: 'CLAIM-ABCD2345',
  claimedBy: null,
  claimedAt: null,
  xUserId: null,
  xLinkedAt: null,
  emailVerifiedAt: null,
  walletChangedAt: null,
  createdAt: created,
  updatedAt: new Date('2026-11-02T10:00:00.000Z'),
};

describe('user mapping', () => {
  it('answers the contract User: ISO timestamps, two-decimal multiplier, absent instead of null', () => {
    expect(toUserMessage(user)).toEqual({
      id: user.id,
      email: 'alice@example.com',
      displayName: 'Alice',
      firstName: undefined,
      lastName: undefined,
      profileImageUrl: '/media/profile-images/a.png',
      bannerImageUrl: undefined,
      walletAddress: user.walletAddress,
      twitterUsername: 'Alice',
      role: 'streamer',
      currentTier: 2,
      nextStreamTime: '2026-12-01T18:00:00.000Z',
      isLive: 'false',
      streamerMultiplier: '1.50',
      isPlaceholder: 'false',
      claimCode: undefined,
      claimedBy: undefined,
      claimedAt: undefined,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-02T10:00:00.000Z',
    });
  });

  it('never lets the password hash or the claim code out', () => {
    const text = JSON.stringify([toUserMessage(user), toUserSnapshot(user), toStreamerSummary(user)]);
    expect(text).not.toContain('scrypt');
    expect(text).not.toContain('CLAIM-');
  });

  it('builds event snapshots that satisfy the contract schema, without the email', () => {
    const snapshot = toUserSnapshot({ ...user, nextStreamTime: null });
    expect(userSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot).not.toHaveProperty('email');
    expect(snapshot.nextStreamTime).toBeNull();
    expect(snapshot.streamerMultiplier).toBe('1.50');
  });

  it('gives the admin placeholder view its claim code and claim state', () => {
    const claimedAt = new Date('2026-11-03T00:00:00.000Z');
    const placeholder = { ...user, isPlaceholder: 'true' as const, claimedBy: 'c5f5a0a0-0000-4000-8000-000000000001', claimedAt };
    expect(toPlaceholderMessage(placeholder)).toMatchObject({
      claimCode: 'CLAIM-ABCD2345',
      claimedBy: 'c5f5a0a0-0000-4000-8000-000000000001',
      claimedAt: '2026-11-03T00:00:00.000Z',
      streamerMultiplier: '1.50',
    });
  });

  it('maps tokens', () => {
    const token: TokenEntity = {
      id: 't1',
      streamerId: user.id,
      name: 'Alice',
      pumpFunLink: 'https://pump.fun/x',
      description: null,
      isActive: 'true',
      createdAt: created,
      updatedAt: created,
    };
    expect(toTokenMessage(token)).toEqual({
      id: 't1',
      streamerId: user.id,
      name: 'Alice',
      pumpFunLink: 'https://pump.fun/x',
      description: undefined,
      isActive: 'true',
    });
  });

  it.each([
    ['1', '1.00'],
    ['1.5', '1.50'],
    ['2.00', '2.00'],
  ])('formats the multiplier %j as %j', (raw, expected) => {
    expect(formatMultiplier(raw)).toBe(expected);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { identityV1 } from '@clipit/contracts';
import { currentUserSchema, toCurrentUser } from './current-user.js';

const user: identityV1.User = {
  id: '7d0f7a57-2a5c-4a7e-9d1e-3f0b8c1f9a10',
  email: 'alice@example.com',
  twitterUsername: 'alice',
  role: 'streamer',
  currentTier: 2,
  isLive: 'true',
  streamerMultiplier: '1.25',
  isPlaceholder: 'false',
  claimCode: 'CLAIM-SECRET00',
  claimedBy: undefined,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

describe('toCurrentUser', () => {
  it('answers the documented shape, unset fields as null', () => {
    const out = toCurrentUser(user);
    expect(currentUserSchema.strict().parse(out)).toEqual(out);
    expect(out).toMatchObject({ displayName: null, walletAddress: null, nextStreamTime: null, isLive: 'true', currentTier: 2 });
  });

  it('never exposes claim codes, placeholder flags or update stamps', () => {
    const out = toCurrentUser(user) as Record<string, unknown>;
    for (const key of ['claimCode', 'claimedBy', 'isPlaceholder', 'updatedAt', 'password', 'passwordHash'])
      expect(out).not.toHaveProperty(key);
  });
});

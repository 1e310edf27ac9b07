import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import type { UserEntity } from '../entities/user.entity.js';
import { newPlaceholder, newXAccount } from './user.factory.js';
import { decideXSignIn, parseXProfile } from './x-account.js';

const now = new Date('2026-11-24T12:00:00.000Z');
const X_ID = '1470000000000000001';
const profile = { xUserId: X_ID, xUsername: 'alice_x', name: 'Alice', profileImageUrl: 'https://pbs.twimg.com/a.jpg' };

function account(patch: Partial<UserEntity> = {}): UserEntity {
  return { ...newXAccount(profile, now), xUserId: null, xLinkedAt: null, email: 'a@example.com', passwordHash: 'scrypt$…', ...patch };
}

describe('parseXProfile', () => {
  it('keeps the id and the handle without @, trims the name, keeps an http(s) picture', () => {
    expect(
      parseXProfile({ xUserId: X_ID, xUsername: '@alice_x', name: '  Alice  ', profileImageUrl: 'https://pbs.twimg.com/a.jpg' }),
    ).toEqual(profile);
  });

  it('drops an empty name, cuts a long one to 100 characters and ignores a picture that is not a web address', () => {
    expect(parseXProfile({ xUserId: X_ID, xUsername: 'alice_x', name: '   ', profileImageUrl: 'javascript:alert(1)' })).toMatchObject({
      name: null,
      profileImageUrl: null,
    });
    expect(parseXProfile({ xUserId: X_ID, xUsername: 'alice_x', name: 'n'.repeat(150) }).name).toHaveLength(100);
  });

  it.each([
    ['an id that is not digits', { xUserId: 'abc', xUsername: 'alice' }],
    ['an id longer than 64 bits can be', { xUserId: '1'.repeat(20), xUsername: 'alice' }],
    ['no handle', { xUserId: X_ID, xUsername: '' }],
    ['a handle X would never give', { xUserId: X_ID, xUsername: 'not a handle' }],
  ])('refuses %s', (_why, req) => {
    expect(() => parseXProfile(req)).toThrow(
      expect.objectContaining({ code: status.INVALID_ARGUMENT, message: 'X did not return a usable profile' }),
    );
  });
});

describe('decideXSignIn (signed out)', () => {
  it('signs in the account already linked to the X id, whatever its handle is now', () => {
    const linked = account({ xUserId: X_ID, twitterUsername: 'old_handle' });
    expect(decideXSignIn(X_ID, { byXId: linked, byHandle: null })).toEqual({ kind: 'sign-in', user: linked });
  });

  it('links the password account whose handle is the X username', () => {
    const byHandle = account({ twitterUsername: 'Alice_X' });
    expect(decideXSignIn(X_ID, { byXId: null, byHandle })).toEqual({ kind: 'link', user: byHandle });
  });

  it('refuses when the account with that handle is linked to another X user (the handle changed hands on X)', () => {
    const decision = decideXSignIn(X_ID, { byXId: null, byHandle: account({ xUserId: '42' }) });
    expect(decision).toMatchObject({
      kind: 'refuse',
      error: { code: status.FAILED_PRECONDITION, message: 'The CLIP IT account with this X handle is linked to a different X account' },
    });
  });

  it('creates an account when nothing matches', () => {
    expect(decideXSignIn(X_ID, { byXId: null, byHandle: null })).toEqual({ kind: 'create' });
  });
});

describe('decideXSignIn (a signed-in account linking X)', () => {
  it('links an account that has no X yet', () => {
    const me = account();
    expect(decideXSignIn(X_ID, { byXId: null, byHandle: null, linkTarget: me })).toEqual({ kind: 'link', user: me });
  });

  it('only signs in again when the account is already linked to this very X user', () => {
    const me = account({ xUserId: X_ID });
    expect(decideXSignIn(X_ID, { byXId: me, byHandle: null, linkTarget: me })).toEqual({ kind: 'sign-in', user: me });
  });

  it('refuses a second, different X account', () => {
    expect(decideXSignIn(X_ID, { byXId: null, byHandle: null, linkTarget: account({ xUserId: '42' }) })).toMatchObject({
      kind: 'refuse',
      error: { code: status.FAILED_PRECONDITION, message: 'Your account is already linked to a different X account' },
    });
  });

  it('refuses an X account another account already signs in with', () => {
    const other = account({ id: '7a1f0c1e-0000-4000-8000-000000000001', xUserId: X_ID });
    expect(decideXSignIn(X_ID, { byXId: other, byHandle: null, linkTarget: account() })).toMatchObject({
      kind: 'refuse',
      error: { code: status.ALREADY_EXISTS, message: 'This X account is already linked to another CLIP IT account' },
    });
  });
});

describe('newXAccount', () => {
  it('is a clipper with the X handle, name and picture, linked now, without email, password or wallet', () => {
    expect(newXAccount(profile, now, '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11')).toMatchObject({
      id: '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11',
      role: 'clipper',
      twitterUsername: 'alice_x',
      displayName: 'Alice',
      profileImageUrl: 'https://pbs.twimg.com/a.jpg',
      email: null,
      passwordHash: null,
      walletAddress: null,
      isPlaceholder: 'false',
      xUserId: X_ID,
      xLinkedAt: now,
    });
  });

  it('is never a placeholder, and a placeholder never carries an X id', () => {
    expect(
      newPlaceholder(
        { twitterUsername: 'big', displayName: null, profileImageUrl: null, bannerImageUrl: null, streamerMultiplier: '1.00' },
        'CLAIM-ABCD2345',
        now,
      ).xUserId,
    ).toBeNull();
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, PNG_1PX, rejected, startIdentity, type IdentityHarness } from '../support/identity-harness.js';

// Sign-up against the real Postgres, NATS and filesystem storage, through the real gRPC server.

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});

afterAll(async () => {
  await h?.stop();
});

/** Rows of every table a sign-up writes, for "nothing was left behind" checks. */
async function footprint() {
  return {
    users: await h.count('SELECT count(*) FROM users'),
    sessions: await h.count('SELECT count(*) FROM sessions'),
    tokens: await h.count('SELECT count(*) FROM tokens'),
    outbox: await h.count('SELECT count(*) FROM outbox'),
    files: (await h.storedFiles()).length,
  };
}

describe('sign-up', () => {
  it('creates the account, a session, and answers the user without secrets', async () => {
    const req = newSignUp({ email: 'Mixed.Case@Example.com', twitterHandle: '@CaseKept_1', displayName: 'Case Kept' });
    const result = await h.client.signUp(req);

    expect(result.user).toMatchObject({
      email: 'mixed.case@example.com',
      twitterUsername: 'CaseKept_1',
      displayName: 'Case Kept',
      role: 'clipper',
      currentTier: 1,
      isLive: 'false',
      isPlaceholder: 'false',
      streamerMultiplier: '1.00',
      walletAddress: req.walletAddress,
    });
    expect(result.user!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(result.session!.sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttlMs = Date.parse(result.session!.expiresAt) - Date.now();
    expect(ttlMs).toBeGreaterThan(1_209_600_000 - 60_000);
    expect(result.claimedProfile).toBeUndefined();

    const { rows } = await h.db.query('SELECT email, twitter_username, password_hash, role FROM users WHERE id = $1', [result.user!.id]);
    expect(rows[0]).toMatchObject({ email: 'mixed.case@example.com', twitter_username: 'CaseKept_1', role: 'clipper' });
    expect(rows[0].password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    // The session row holds the hash of the id, never the id the browser keeps.
    expect(await h.count('SELECT count(*) FROM sessions WHERE sid = $1', [result.session!.sid])).toBe(0);
    expect(await h.count(`SELECT count(*) FROM sessions WHERE sess->>'userId' = $1`, [result.user!.id])).toBe(1);
    expect(await h.client.resolveSession({ sid: result.session!.sid })).toMatchObject({ id: result.user!.id });
  });

  it('stores a profile picture under profile-images/ and links it, judging the bytes not the declared type', async () => {
    const result = await h.client.signUp(newSignUp({ profilePicture: PNG_1PX, profilePictureContentType: 'text/plain' }));
    const url = result.user!.profileImageUrl!;
    expect(url).toMatch(new RegExp(`^/media/profile-images/${result.user!.id}-[0-9a-f]{16}\\.png$`));
    const key = url.slice('/media/'.length);
    expect(await h.storedFiles()).toContain(key);
    expect((await readFile(join(h.storageRoot, key))).equals(PNG_1PX)).toBe(true);
    expect(JSON.parse(await readFile(join(h.storageRoot, `${key}.meta`), 'utf8'))).toEqual({ contentType: 'image/png' });
  });

  it.each([
    ['a bad email', { email: 'nope' }, 'Please enter a valid email address'],
    ['no handle', { twitterHandle: ' ' }, 'Twitter handle is required'],
    [
      'a handle with spaces',
      { twitterHandle: 'two words' },
      'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)',
    ],
    ['no wallet', { walletAddress: '' }, 'Solana wallet address is required'],
    ['a bad wallet', { walletAddress: '0x1234' }, 'Please enter a valid Solana wallet address'],
    ['no role', { role: '' }, 'Please select a role'],
    ['a bad token link', { role: 'streamer', tokenLink: 'pump dot fun' }, 'Please enter a valid URL'],
    ['a short password', { password: 'short' }, 'Password must be at least 8 characters'],
    ['a clipper claim code', { claimCode: 'CLAIM-ABCD2345' }, 'Only streamers can claim a profile'],
    ['an unknown claim code', { role: 'streamer', claimCode: 'claim-zzzz9999' }, 'Invalid claim code'],
    [
      'a picture that is not an image',
      { profilePicture: Buffer.from('#!/bin/sh\necho hi'), profilePictureContentType: 'image/png' },
      'Profile picture must be an image file',
    ],
    [
      'a picture over 5 MB',
      { profilePicture: Buffer.concat([PNG_1PX, Buffer.alloc(5 * 1024 * 1024)]) },
      'Profile picture must be 5 MB or smaller',
    ],
  ])('refuses %s with INVALID_ARGUMENT, leaving no rows and no file', async (_case, patch, message) => {
    const before = await footprint();
    const err = await rejected(h.client.signUp(newSignUp({ profilePicture: PNG_1PX, ...patch })));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
    expect(await footprint()).toEqual(before);
  });

  it('refuses a handle or email already registered (any case), leaving nothing behind', async () => {
    const first = newSignUp();
    await h.client.signUp(first);
    const before = await footprint();

    const sameHandle = await rejected(
      h.client.signUp(newSignUp({ twitterHandle: `@${first.twitterHandle.toUpperCase()}`, profilePicture: PNG_1PX })),
    );
    expect([sameHandle.code, sameHandle.message]).toEqual([status.ALREADY_EXISTS, 'That Twitter handle is already registered']);

    const sameEmail = await rejected(h.client.signUp(newSignUp({ email: first.email.toUpperCase(), profilePicture: PNG_1PX })));
    expect([sameEmail.code, sameEmail.message]).toEqual([status.ALREADY_EXISTS, 'An account with this email already exists']);
    expect(await footprint()).toEqual(before);
  });

  it('lets exactly one of two racing sign-ups for a handle win, without an orphaned picture', async () => {
    const handle = newSignUp().twitterHandle;
    const filesBefore = (await h.storedFiles()).length;
    const results = await Promise.allSettled([
      h.client.signUp(newSignUp({ twitterHandle: handle, profilePicture: PNG_1PX })),
      h.client.signUp(newSignUp({ twitterHandle: handle, profilePicture: PNG_1PX })),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toMatchObject({ code: status.ALREADY_EXISTS, message: 'That Twitter handle is already registered' });
    expect((await h.storedFiles()).length).toBe(filesBefore + 1);
    expect(await h.count('SELECT count(*) FROM users WHERE lower(twitter_username) = lower($1)', [handle])).toBe(1);
  });

  it('gives a streamer with a token link a token that ListTokens shows, newest first', async () => {
    const older = await h.client.signUp(
      newSignUp({ role: 'streamer', displayName: 'Older Streamer', tokenLink: 'https://pump.fun/coin/older' }),
    );
    const newer = await h.client.signUp(newSignUp({ role: 'streamer', tokenLink: 'https://pump.fun/coin/newer' }));
    await h.client.signUp(newSignUp({ role: 'streamer' })); // no link: no token

    const { tokens } = await h.client.listTokens({});
    const mine = tokens.filter((t) => [older.user!.id, newer.user!.id].includes(t.streamerId));
    expect(mine).toEqual([
      {
        id: expect.any(String),
        streamerId: newer.user!.id,
        name: newer.user!.twitterUsername,
        pumpFunLink: 'https://pump.fun/coin/newer',
        isActive: 'true',
      },
      {
        id: expect.any(String),
        streamerId: older.user!.id,
        name: 'Older Streamer',
        pumpFunLink: 'https://pump.fun/coin/older',
        isActive: 'true',
      },
    ]);
    expect(tokens.indexOf(mine[0]!)).toBeLessThan(tokens.indexOf(mine[1]!));
  });
});

describe('placeholder streamers and claim codes', () => {
  it('creates a placeholder with a claim code, listed for admins and among streamers', async () => {
    const created = await h.client.createPlaceholderStreamer({
      displayName: 'Zed Placeholder',
      twitterUsername: '@zed_ph',
      profileImageUrl: 'https://img.example/zed.png',
      streamerMultiplier: '1.5',
    });
    expect(created).toMatchObject({
      displayName: 'Zed Placeholder',
      twitterUsername: 'zed_ph',
      streamerMultiplier: '1.50',
      profileImageUrl: 'https://img.example/zed.png',
    });
    expect(created.claimCode).toMatch(/^CLAIM-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    expect(created.claimedBy).toBeUndefined();

    const { placeholders } = await h.client.listPlaceholderStreamers({});
    expect(placeholders[0]).toEqual(created);
    const { streamers } = await h.client.listStreamers({});
    expect(streamers).toContainEqual({ id: created.id, displayName: 'Zed Placeholder', twitterUsername: 'zed_ph' });

    const login = await rejected(h.client.logIn({ twitterHandle: 'zed_ph', password: 'anything at all', client: {} }));
    expect([login.code, login.message]).toEqual([status.UNAUTHENTICATED, 'Invalid Twitter handle or password']);
  });

  it('validates placeholders and refuses a handle that is taken', async () => {
    const bad = await rejected(h.client.createPlaceholderStreamer({ displayName: 'X', twitterUsername: 'x', streamerMultiplier: '2.5' }));
    expect([bad.code, bad.message]).toEqual([
      status.INVALID_ARGUMENT,
      'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
    ]);
    const account = await h.client.signUp(newSignUp({ role: 'streamer' }));
    const taken = await rejected(
      h.client.createPlaceholderStreamer({ displayName: 'Dup', twitterUsername: account.user!.twitterUsername! }),
    );
    expect([taken.code, taken.message]).toEqual([status.ALREADY_EXISTS, 'That Twitter handle is already registered']);
    await h.client.createPlaceholderStreamer({ displayName: 'Once', twitterUsername: 'once_only' });
    const twice = await rejected(h.client.createPlaceholderStreamer({ displayName: 'Twice', twitterUsername: 'ONCE_only' }));
    expect(twice.code).toBe(status.ALREADY_EXISTS);
  });

  it('claims the placeholder at sign-up (same handle allowed), and the code cannot be used twice', async () => {
    const placeholder = await h.client.createPlaceholderStreamer({
      displayName: 'Claimable Star',
      twitterUsername: 'claimable_star',
      bannerImageUrl: 'https://img.example/banner.png',
      streamerMultiplier: '1.25',
    });

    const result = await h.client.signUp(
      newSignUp({
        role: 'streamer',
        twitterHandle: 'claimable_star',
        claimCode: placeholder.claimCode.toLowerCase(),
        tokenLink: 'https://pump.fun/coin/star',
      }),
    );
    expect(result.claimedProfile).toEqual({ id: placeholder.id, displayName: 'Claimable Star' });
    expect(result.user).toMatchObject({
      twitterUsername: 'claimable_star',
      displayName: 'Claimable Star',
      bannerImageUrl: 'https://img.example/banner.png',
      streamerMultiplier: '1.25',
      role: 'streamer',
      isPlaceholder: 'false',
    });

    const { placeholders } = await h.client.listPlaceholderStreamers({});
    const claimed = placeholders.find((p) => p.id === placeholder.id)!;
    expect(claimed.claimedBy).toBe(result.user!.id);
    expect(Date.parse(claimed.claimedAt!)).toBeGreaterThan(Date.now() - 60_000);

    // The account replaces the claimed placeholder in the streamer list.
    const { streamers } = await h.client.listStreamers({});
    expect(streamers.map((s) => s.id)).toContain(result.user!.id);
    expect(streamers.map((s) => s.id)).not.toContain(placeholder.id);

    const before = await footprint();
    const again = await rejected(
      h.client.signUp(newSignUp({ role: 'streamer', claimCode: placeholder.claimCode, profilePicture: PNG_1PX })),
    );
    expect([again.code, again.message]).toEqual([status.INVALID_ARGUMENT, 'This claim code has already been used']);
    expect(await footprint()).toEqual(before);
  });

  it('lets only one of two racing sign-ups claim a code', async () => {
    const placeholder = await h.client.createPlaceholderStreamer({ displayName: 'Raced', twitterUsername: 'raced_ph' });
    const results = await Promise.allSettled([
      h.client.signUp(newSignUp({ role: 'streamer', claimCode: placeholder.claimCode })),
      h.client.signUp(newSignUp({ role: 'streamer', claimCode: placeholder.claimCode })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(lost.reason).toMatchObject({ code: status.INVALID_ARGUMENT, message: 'This claim code has already been used' });
    expect(await h.count(`SELECT count(*) FROM users WHERE claimed_by IS NOT NULL AND id = $1`, [placeholder.id])).toBe(1);
  });

  it('orders streamers by display name, case-insensitively', async () => {
    const gamma = await h.client.createPlaceholderStreamer({ displayName: 'Gamma Order', twitterUsername: 'gamma_order' });
    const alpha = await h.client.signUp(newSignUp({ role: 'streamer', displayName: 'alpha Order' }));
    const beta = await h.client.createPlaceholderStreamer({ displayName: 'Beta Order', twitterUsername: 'beta_order' });
    const clipper = await h.client.signUp(newSignUp({ role: 'clipper', displayName: 'Aaa Clipper' }));
    const ids = (await h.client.listStreamers({})).streamers.map((s) => s.id);
    expect(ids).not.toContain(clipper.user!.id);
    const order = [alpha.user!.id, beta.id, gamma.id].map((id) => ids.indexOf(id));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});

import { status } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import type { SessionEndedV1, UserSessionsEndedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashPassword } from '../../src/domain/password.js';
import { newSignUp, rejected, startIdentity, WALLET, type IdentityHarness } from '../support/identity-harness.js';

// Log-in, sessions (rolling expiry, expiry, sweeping), log-out, password reset and profile edits.

let h: IdentityHarness;
const DAY_MS = 24 * 3600 * 1000;

beforeAll(async () => {
  h = await startIdentity({ SESSION_SWEEP_INTERVAL_SECONDS: 1 });
});

afterAll(async () => {
  await h?.stop();
});

async function sessionExpiries(userId: string): Promise<Date[]> {
  const { rows } = await h.db.query<{ expire: Date }>(`SELECT expire FROM sessions WHERE sess->>'userId' = $1 ORDER BY expire`, [userId]);
  return rows.map((r) => r.expire);
}

describe('log-in and sessions', () => {
  it('logs in with the handle (any case, with or without @) and the password', async () => {
    const req = newSignUp({ twitterHandle: 'Login_Case' });
    const { user } = await h.client.signUp(req);
    const result = await h.client.logIn({ twitterHandle: '@login_case', password: req.password, client: { ip: '198.51.100.4', userAgent: 'ua' } });
    expect(result.user).toMatchObject({ id: user!.id, twitterUsername: 'Login_Case' });
    expect(await h.client.resolveSession({ sid: result.session!.sid })).toMatchObject({ id: user!.id, email: req.email });
    const { rows } = await h.db.query(`SELECT sess FROM sessions WHERE sess->>'userId' = $1 AND sess->>'ip' = '198.51.100.4'`, [user!.id]);
    expect(rows[0].sess).toMatchObject({ userId: user!.id, ip: '198.51.100.4', userAgent: 'ua' });
  });

  it('answers the same refusal for a wrong password and an unknown handle', async () => {
    const req = newSignUp();
    await h.client.signUp(req);
    for (const attempt of [
      { twitterHandle: req.twitterHandle, password: 'wrong password' },
      { twitterHandle: 'nobody_here', password: req.password },
      { twitterHandle: 'not a handle', password: req.password },
      { twitterHandle: req.twitterHandle, password: 'x'.repeat(300) },
    ]) {
      const err = await rejected(h.client.logIn({ ...attempt, client: {} }));
      expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Invalid Twitter handle or password']);
    }
  });

  it('upgrades a hash made with older scrypt parameters on the next log-in', async () => {
    const req = newSignUp();
    const { user } = await h.client.signUp(req);
    const old = await hashPassword(req.password, { N: 2 ** 12, r: 8, p: 1 });
    await h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user!.id, old]);
    await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
    const { rows } = await h.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user!.id]);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
  });

  it('hashes at the configured cost (PASSWORD_HASH_COST), checks unknown handles at it, and moves older hashes to it at log-in', async () => {
    const cheap = await startIdentity({ PASSWORD_HASH_COST: 11 });
    try {
      const req = newSignUp();
      const { user } = await cheap.client.signUp(req);
      const stored = async () => (await cheap.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user!.id])).rows[0]!.password_hash;
      expect(await stored()).toMatch(/^scrypt\$2048\$8\$1\$/);
      // A hash from before the cost changed (production's default) is made again at the configured one.
      await cheap.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user!.id, await hashPassword(req.password)]);
      await cheap.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
      expect(await stored()).toMatch(/^scrypt\$2048\$8\$1\$/);
      const unknown = await rejected(cheap.client.logIn({ twitterHandle: `${req.twitterHandle}x`, password: req.password, client: {} }));
      expect(unknown.code).toBe(status.UNAUTHENTICATED);
    } finally {
      await cheap.stop();
    }
  });

  it('requires a handle and a password', async () => {
    const noHandle = await rejected(h.client.logIn({ twitterHandle: '', password: 'x', client: {} }));
    expect([noHandle.code, noHandle.message]).toEqual([status.INVALID_ARGUMENT, 'Twitter handle is required']);
    const noPassword = await rejected(h.client.logIn({ twitterHandle: 'someone', password: '', client: {} }));
    expect([noPassword.code, noPassword.message]).toEqual([status.INVALID_ARGUMENT, 'Password is required']);
  });

  it('answers Not signed in for unknown, malformed and ended sessions; log-out is idempotent', async () => {
    const { session } = await h.client.signUp(newSignUp());
    for (const sid of ['', 'garbage', 'A'.repeat(43)]) {
      const err = await rejected(h.client.resolveSession({ sid }));
      expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Not signed in']);
    }
    expect(await h.client.logOut({ sid: session!.sid })).toEqual({ ended: true });
    expect((await rejected(h.client.resolveSession({ sid: session!.sid }))).message).toBe('Not signed in');
    expect(await h.client.logOut({ sid: session!.sid })).toEqual({ ended: false });
    expect(await h.client.logOut({ sid: 'nonsense' })).toEqual({ ended: false });
  });

  it('extends a session only once less than half its lifetime is left', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    const [fresh] = await sessionExpiries(user!.id);
    await h.client.resolveSession({ sid: session!.sid });
    expect(await sessionExpiries(user!.id)).toEqual([fresh]); // no write on the hot path

    await h.db.query(`UPDATE sessions SET expire = now() + interval '8 days' WHERE sess->>'userId' = $1`, [user!.id]);
    const [eightDays] = await sessionExpiries(user!.id);
    await h.client.resolveSession({ sid: session!.sid });
    expect(await sessionExpiries(user!.id)).toEqual([eightDays]);

    await h.db.query(`UPDATE sessions SET expire = now() + interval '2 days' WHERE sess->>'userId' = $1`, [user!.id]);
    await h.client.resolveSession({ sid: session!.sid });
    const [extended] = await sessionExpiries(user!.id);
    expect(extended!.getTime()).toBeGreaterThan(Date.now() + 13 * DAY_MS);
  });

  it('tells the caller the expiry, and whether this call renewed it, so the cookie can follow', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    const fresh = await h.client.resolveSessionWithExpiry({ sid: session!.sid });
    expect(fresh).toEqual({ user: expect.objectContaining({ id: user!.id }), session: { sid: session!.sid, expiresAt: session!.expiresAt }, renewed: false });

    await h.db.query(`UPDATE sessions SET expire = now() + interval '1 day' WHERE sess->>'userId' = $1`, [user!.id]);
    const renewed = await h.client.resolveSessionWithExpiry({ sid: session!.sid });
    expect(renewed.renewed).toBe(true);
    expect(Date.parse(renewed.session!.expiresAt)).toBeGreaterThan(Date.now() + 13 * DAY_MS);
    expect((await sessionExpiries(user!.id))[0]!.toISOString()).toBe(renewed.session!.expiresAt);
    expect((await h.client.resolveSessionWithExpiry({ sid: session!.sid })).renewed).toBe(false);

    const err = await rejected(h.client.resolveSessionWithExpiry({ sid: 'B'.repeat(43) }));
    expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Not signed in']);
  });

  it('refuses an expired session, and the sweeper removes it', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    await h.db.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sess->>'userId' = $1`, [user!.id]);
    const err = await rejected(h.client.resolveSession({ sid: session!.sid }));
    expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Not signed in']);
    await waitFor(async () => ((await sessionExpiries(user!.id)).length === 0 ? true : undefined), 10_000, 'the expired session to be swept');
  });
});

describe('password reset', () => {
  it('sets the new password, ends every session, records the reset', async () => {
    const req = newSignUp();
    const { user, session } = await h.client.signUp(req);
    const second = await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });

    const answer = await h.client.resetPassword({
      twitterHandle: `@${req.twitterHandle.toUpperCase()}`,
      email: req.email.toUpperCase(),
      newPassword: 'brand new password',
      client: { ip: '192.0.2.55' },
    });
    expect(answer).toEqual({ endedSessions: 2 });
    for (const sid of [session!.sid, second.session!.sid]) expect((await rejected(h.client.resolveSession({ sid }))).code).toBe(status.UNAUTHENTICATED);

    expect((await rejected(h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} }))).code).toBe(status.UNAUTHENTICATED);
    const fresh = await h.client.logIn({ twitterHandle: req.twitterHandle, password: 'brand new password', client: {} });
    expect(fresh.user!.id).toBe(user!.id);
    const { rows } = await h.db.query('SELECT ip FROM password_resets WHERE user_id = $1', [user!.id]);
    expect(rows).toEqual([{ ip: '192.0.2.55' }]);
  });

  it('refuses a handle and email that do not belong together, changing nothing', async () => {
    const a = newSignUp();
    const b = newSignUp();
    await h.client.signUp(a);
    await h.client.signUp(b);
    const err = await rejected(h.client.resetPassword({ twitterHandle: a.twitterHandle, email: b.email, newPassword: 'another password', client: {} }));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'No account matches that Twitter handle and email']);
    await h.client.logIn({ twitterHandle: a.twitterHandle, password: a.password, client: {} });
    expect(await h.count('SELECT count(*) FROM password_resets')).toBe(1);
  });

  it('checks the request fields', async () => {
    const short = await rejected(h.client.resetPassword({ twitterHandle: 'x', email: 'x@example.com', newPassword: 'short', client: {} }));
    expect([short.code, short.message]).toEqual([status.INVALID_ARGUMENT, 'Password must be at least 8 characters']);
    expect((await rejected(h.client.resetPassword({ twitterHandle: 'x', email: 'bad', newPassword: 'long enough', client: {} }))).message).toBe(
      'Please enter a valid email address',
    );
    expect((await rejected(h.client.resetPassword({ twitterHandle: '', email: 'x@example.com', newPassword: 'long enough', client: {} }))).message).toBe(
      'Twitter handle is required',
    );
  });

  it('never resets a placeholder', async () => {
    await h.client.createPlaceholderStreamer({ displayName: 'Ph', twitterUsername: 'reset_ph' });
    const err = await rejected(h.client.resetPassword({ twitterHandle: 'reset_ph', email: 'reset_ph@example.com', newPassword: 'long enough', client: {} }));
    expect(err.message).toBe('No account matches that Twitter handle and email');
  });
});

describe('users and profiles', () => {
  it('answers a user by id, and NOT_FOUND otherwise', async () => {
    const { user } = await h.client.signUp(newSignUp());
    expect(await h.client.getUser({ id: user!.id })).toEqual(user);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '']) {
      const err = await rejected(h.client.getUser({ id }));
      expect([err.code, err.message]).toEqual([status.NOT_FOUND, 'User not found']);
    }
  });

  it('updates the wallet, refusing bad ones with the connect page messages', async () => {
    const { user } = await h.client.signUp(newSignUp());
    const other = 'So11111111111111111111111111111111111111112';
    expect((await h.client.updateWallet({ userId: user!.id, walletAddress: other })).walletAddress).toBe(other);
    for (const [walletAddress, message] of [
      ['', 'Wallet address is required'],
      ['not base58 0OIl', 'Please enter a valid Solana wallet address'],
    ] as const) {
      const err = await rejected(h.client.updateWallet({ userId: user!.id, walletAddress }));
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
    }
    expect((await h.client.getUser({ id: user!.id })).walletAddress).toBe(other);
    expect(WALLET).not.toBe(other);
  });

  it('updates the profile fields of a streamer', async () => {
    const { user } = await h.client.signUp(newSignUp({ role: 'streamer' }));
    const updated = await h.client.updateProfile({ userId: user!.id, displayName: '  Shiny Name ' });
    expect(updated).toMatchObject({ displayName: 'Shiny Name' });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(user!.updatedAt));
  });

  it('refuses bad profile values', async () => {
    const { user } = await h.client.signUp(newSignUp({ role: 'clipper' }));
    const cases = [
      [{ displayName: '   ' }, status.INVALID_ARGUMENT, 'Display name is required'],
      [{ displayName: 'x'.repeat(101) }, status.INVALID_ARGUMENT, 'Display name must be at most 100 characters'],
    ] as const;
    for (const [patch, code, message] of cases) {
      const err = await rejected(h.client.updateProfile({ userId: user!.id, ...patch }));
      expect([err.code, err.message]).toEqual([code, message]);
    }
    expect(await h.client.getUser({ id: user!.id })).toEqual(user);
  });
});

describe('session events (what lets every gateway replica forget a cached session, ADR 0004)', () => {
  it('a logout publishes session.ended with the stored key (never the id itself), once', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    const sid = session!.sid;
    expect(await h.client.logOut({ sid })).toEqual({ ended: true });
    expect(await h.client.logOut({ sid })).toEqual({ ended: false });
    const ended = await waitFor(() => h.events.find((e) => e.envelope.type === 'session.ended' && (e.envelope.data as SessionEndedV1).userId === user!.id), 10_000, 'session.ended');
    expect(ended.envelope.data).toEqual({ userId: user!.id, sessionKey: createHash('sha256').update(sid).digest('base64url'), reason: 'logout' });
    expect(JSON.stringify(ended.envelope)).not.toContain(sid);
    expect(await h.count(`SELECT count(*) FROM outbox WHERE type = 'session.ended' AND envelope -> 'data' ->> 'userId' = $1`, [user!.id])).toBe(1);
  });

  it('a password reset publishes user.sessions-ended with how many ended', async () => {
    const req = newSignUp();
    const { user } = await h.client.signUp(req);
    await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
    await h.client.resetPassword({ twitterHandle: req.twitterHandle, email: req.email, newPassword: 'brand new password', client: {} });
    const ended = await waitFor(
      () => h.events.find((e) => e.envelope.type === 'user.sessions-ended' && (e.envelope.data as UserSessionsEndedV1).userId === user!.id),
      10_000,
      'user.sessions-ended',
    );
    expect(ended.envelope.data).toEqual({ userId: user!.id, reason: 'password-reset', endedSessions: 2 });
  });
});

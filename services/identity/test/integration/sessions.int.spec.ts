import * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import type { SessionEndedV1, UserSessionsEndedV1, UserUpdatedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashPassword } from '../../src/domain/password.js';
import { newSignUp, rejected, startIdentity, WALLET, type IdentityHarness } from '../support/identity-harness.js';

// Log-in, sessions (rolling expiry, expiry, sweeping), log-out, password reset and profile edits.

let h: IdentityHarness;
const DAY_MS = 24 * 3600 * 1000;
const OTHER_WALLET = 'So11111111111111111111111111111111111111112';

/** A call by method name with a raw body, as a caller built from an older contract would make it; its error, if any. */
function rawCall(method: string, body: Buffer): Promise<{ code: number } | undefined> {
  const client = new grpc.Client(h.grpcUrl, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      `/identity.v1.IdentityService/${method}`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      (err) => {
        client.close();
        resolve(err ? { code: err.code } : undefined);
      },
    );
  });
}

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
    const result = await h.client.logIn({
      twitterHandle: '@login_case',
      password: req.password,
      client: { ip: '198.51.100.4', userAgent: 'ua' },
    });
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
      const stored = async () =>
        (await cheap.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user!.id])).rows[0]!
          .password_hash;
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
    expect(fresh).toEqual({
      user: expect.objectContaining({ id: user!.id }),
      session: { sid: session!.sid, expiresAt: session!.expiresAt },
      renewed: false,
    });

    await h.db.query(`UPDATE sessions SET expire = now() + interval '1 day' WHERE sess->>'userId' = $1`, [user!.id]);
    const renewed = await h.client.resolveSessionWithExpiry({ sid: session!.sid });
    expect(renewed.renewed).toBe(true);
    expect(Date.parse(renewed.session!.expiresAt)).toBeGreaterThan(Date.now() + 13 * DAY_MS);
    expect((await sessionExpiries(user!.id))[0]!.toISOString()).toBe(renewed.session!.expiresAt);
    expect((await h.client.resolveSessionWithExpiry({ sid: session!.sid })).renewed).toBe(false);

    const err = await rejected(h.client.resolveSessionWithExpiry({ sid: 'B'.repeat(43) }));
    expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Not signed in']);
  });

  it('resolves many sessions in one call, each as alone (renewed when due), leaving out the ended, expired, unknown and malformed', async () => {
    const fresh = await h.client.signUp(newSignUp());
    const due = await h.client.signUp(newSignUp());
    const ended = await h.client.signUp(newSignUp());
    const expired = await h.client.signUp(newSignUp());
    await h.db.query(`UPDATE sessions SET expire = now() + interval '1 day' WHERE sess->>'userId' = $1`, [due.user!.id]);
    await h.db.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sess->>'userId' = $1`, [expired.user!.id]);
    await h.client.logOut({ sid: ended.session!.sid });
    const sids = [fresh, due, ended, expired].map((a) => a.session!.sid);
    const { sessions } = await h.client.resolveSessions({ sids: [...sids, fresh.session!.sid, 'C'.repeat(43), 'garbage', ''] });
    const bySid = new Map(sessions.map((s) => [s.session!.sid, s]));
    expect([...bySid.keys()].sort()).toEqual([fresh.session!.sid, due.session!.sid].sort());
    expect(sessions).toHaveLength(2);
    expect(bySid.get(fresh.session!.sid)).toEqual({
      user: expect.objectContaining({ id: fresh.user!.id }),
      session: { sid: fresh.session!.sid, expiresAt: fresh.session!.expiresAt },
      renewed: false,
    });
    const renewed = bySid.get(due.session!.sid)!;
    expect([renewed.user!.id, renewed.renewed]).toEqual([due.user!.id, true]);
    expect((await sessionExpiries(due.user!.id))[0]!.toISOString()).toBe(renewed.session!.expiresAt);
    expect(await h.client.resolveSessions({ sids: [] })).toEqual({ sessions: [] });

    const err = await rejected(h.client.resolveSessions({ sids: Array.from({ length: 501 }, (_, i) => `${'D'.repeat(40)}${i}`) }));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'At most 500 sessions per call']);
  });

  it('refuses an expired session, and the sweeper removes it', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    await h.db.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sess->>'userId' = $1`, [user!.id]);
    const err = await rejected(h.client.resolveSession({ sid: session!.sid }));
    expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Not signed in']);
    await waitFor(
      async () => ((await sessionExpiries(user!.id)).length === 0 ? true : undefined),
      10_000,
      'the expired session to be swept',
    );
  });
});

describe('the one-step password reset (handle and e-mail alone)', () => {
  it('is gone: a caller that still asks is told UNIMPLEMENTED, and the password stays', async () => {
    const req = newSignUp();
    await h.client.signUp(req);
    const err = await rawCall('ResetPassword', Buffer.alloc(0));
    expect(err?.code).toBe(status.UNIMPLEMENTED);
    await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
  });
});

describe('active sessions (the Profile tab)', () => {
  const chromeOnMac =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

  it('lists each session with its device, network and last use, the caller first; the ids are never shown', async () => {
    const req = newSignUp({ client: { ip: '203.0.113.77', userAgent: chromeOnMac } });
    const { user, session } = await h.client.signUp(req);
    const other = await h.client.logIn({
      twitterHandle: req.twitterHandle,
      password: req.password,
      client: { ip: '2001:db8:abcd:12::1', userAgent: firefoxOnLinux },
    });
    const { sessions } = await h.client.listSessions({ userId: user!.id, sid: session!.sid });
    expect(sessions).toEqual([
      {
        id: expect.stringMatching(/^[\w-]{22}$/),
        device: 'Chrome on macOS',
        address: '203.0.113.0/24',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        method: 'password',
        current: true,
      },
      {
        id: expect.stringMatching(/^[\w-]{22}$/),
        device: 'Firefox on Linux',
        address: '2001:db8:abcd::/48',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        method: 'password',
        current: false,
      },
    ]);
    const listed = JSON.stringify(sessions);
    for (const sid of [session!.sid, other.session!.sid]) {
      expect(listed).not.toContain(sid);
      expect(listed).not.toContain(createHash('sha256').update(sid).digest('base64url'));
    }
    // Another account's list has none of these.
    const stranger = await h.client.signUp(newSignUp());
    expect((await h.client.listSessions({ userId: stranger.user!.id, sid: session!.sid })).sessions).toEqual([
      expect.objectContaining({ current: false }),
    ]);
  });

  it('records when a session was last used, writing at most once in 5 minutes', async () => {
    const { user, session } = await h.client.signUp(newSignUp());
    const hourAgo = new Date(Date.now() - 3_600_000);
    await h.db.query(`UPDATE sessions SET last_seen_at = $2 WHERE sess->>'userId' = $1`, [user!.id, hourAgo]);
    await h.client.resolveSession({ sid: session!.sid });
    const seen = async () =>
      (await h.db.query<{ last_seen_at: Date }>(`SELECT last_seen_at FROM sessions WHERE sess->>'userId' = $1`, [user!.id])).rows[0]!
        .last_seen_at;
    const first = await seen();
    expect(first.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await h.client.resolveSession({ sid: session!.sid });
    expect((await seen()).getTime()).toBe(first.getTime());
    const [listed] = (await h.client.listSessions({ userId: user!.id, sid: session!.sid })).sessions;
    expect(listed!.lastSeenAt).toBe(first.toISOString());
  });

  it('signs out everywhere else: the other sessions end, with user.sessions-ended; the caller stays signed in', async () => {
    const req = newSignUp();
    const { user, session } = await h.client.signUp(req);
    const second = await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
    const third = await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });
    expect(await h.client.endOtherSessions({ userId: user!.id, sid: session!.sid })).toEqual({ endedSessions: 2 });
    for (const sid of [second.session!.sid, third.session!.sid])
      expect((await rejected(h.client.resolveSession({ sid }))).code).toBe(status.UNAUTHENTICATED);
    expect((await h.client.resolveSession({ sid: session!.sid })).id).toBe(user!.id);
    expect((await h.client.listSessions({ userId: user!.id, sid: session!.sid })).sessions).toEqual([
      expect.objectContaining({ current: true }),
    ]);
    const ended = await waitFor(
      () => h.events.find((e) => e.envelope.type === 'user.sessions-ended' && (e.envelope.data as UserSessionsEndedV1).userId === user!.id),
      10_000,
      'user.sessions-ended',
    );
    expect(ended.envelope.data).toEqual({ userId: user!.id, reason: 'signed-out-elsewhere', endedSessions: 2 });
    // Nothing else to end: no event.
    expect(await h.client.endOtherSessions({ userId: user!.id, sid: session!.sid })).toEqual({ endedSessions: 0 });
    expect(
      await h.count(`SELECT count(*) FROM outbox WHERE type = 'user.sessions-ended' AND envelope -> 'data' ->> 'userId' = $1`, [user!.id]),
    ).toBe(1);
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

  it('refuses bad wallets with the connect page messages', async () => {
    const { user } = await h.client.signUp(newSignUp());
    for (const [walletAddress, message] of [
      ['', 'Wallet address is required'],
      ['not base58 0OIl', 'Please enter a valid Solana wallet address'],
    ] as const) {
      const err = await rejected(h.client.updateWallet({ userId: user!.id, walletAddress }));
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
    }
    expect((await h.client.getUser({ id: user!.id })).walletAddress).toBe(WALLET);
  });

  it('replaces a wallet only with the current password; the change is stamped, in the event, and mailed to the owner', async () => {
    const req = newSignUp();
    const { user, session } = await h.client.signUp(req);
    for (const [currentPassword, message] of [
      [undefined, 'Enter your current password to change your wallet address'],
      ['wrong password', 'Current password is incorrect'],
    ] as const) {
      const err = await rejected(
        h.client.updateWallet({ userId: user!.id, walletAddress: OTHER_WALLET, currentPassword, sid: session!.sid }),
      );
      expect([err.code, err.message]).toEqual([status.PERMISSION_DENIED, message]);
    }
    expect(await h.client.getUser({ id: user!.id })).toEqual(user);

    // The same wallet again is no change, and needs nothing.
    expect((await h.client.updateWallet({ userId: user!.id, walletAddress: WALLET })).walletChangedAt).toBeUndefined();

    const changed = await h.client.updateWallet({ userId: user!.id, walletAddress: OTHER_WALLET, currentPassword: req.password });
    expect(changed.walletAddress).toBe(OTHER_WALLET);
    expect(Date.parse(changed.walletChangedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const updated = await waitFor(
      () =>
        h.events.find(
          (e) =>
            e.envelope.type === 'user.updated' &&
            (e.envelope.data as UserUpdatedV1).user.id === user!.id &&
            (e.envelope.data as UserUpdatedV1).changed.includes('walletAddress'),
        ),
      10_000,
      'user.updated',
    );
    expect((updated.envelope.data as UserUpdatedV1).user).toMatchObject({
      walletAddress: OTHER_WALLET,
      walletChangedAt: changed.walletChangedAt,
    });
    const mail = await h.mail.waitFor(req.email, { n: 2 });
    expect(mail.subject).toBe('Your CLIP IT payout wallet was changed');
    expect(mail.text).toContain(`@${req.twitterHandle}`);
    expect(mail.text).toContain(`from ${WALLET.slice(0, 4)}…${WALLET.slice(-4)} to ${OTHER_WALLET.slice(0, 4)}…${OTHER_WALLET.slice(-4)}`);
    expect(mail.text).toContain(new Date(Date.parse(changed.walletChangedAt!) + 72 * 3_600_000).toUTCString());
    expect(mail.text).toContain('http://clipit.test/login');
  });

  it('sets the first wallet of an account made with X without more; replacing it needs a sign-in with X from the last 10 minutes', async () => {
    const x = {
      xUserId: `18${String(Date.now()).padStart(15, '0')}`.slice(0, 19),
      xUsername: `xw_${Date.now().toString(36).slice(-6)}`,
      client: { ip: '203.0.113.9' },
    };
    const signedIn = await h.client.signInWithX(x);
    const userId = signedIn.user!.id;
    const first = await h.client.updateWallet({ userId, walletAddress: WALLET });
    expect([first.walletAddress, first.walletChangedAt]).toEqual([WALLET, undefined]);

    // A password session cannot stand in for it (this account has none), nor another account's X sign-in.
    const otherXUserId = `${x.xUserId.slice(0, -1)}${(Number(x.xUserId.at(-1)) + 1) % 10}`;
    const someoneElse = await h.client.signInWithX({ ...x, xUserId: otherXUserId, xUsername: `${x.xUsername}b` });
    expect(someoneElse.user!.id).not.toBe(userId);
    for (const sid of [undefined, someoneElse.session!.sid]) {
      const err = await rejected(h.client.updateWallet({ userId, walletAddress: OTHER_WALLET, sid, currentPassword: 'anything at all' }));
      expect([err.code, err.message]).toEqual([
        status.PERMISSION_DENIED,
        'Sign in with X again to change your wallet address: a change needs a sign-in from the last 10 minutes',
      ]);
    }
    // Eleven minutes after the sign-in, it is too old.
    await h.db.query(`UPDATE sessions SET sess = jsonb_set(sess, '{createdAt}', to_jsonb($2::text)) WHERE sess->>'userId' = $1`, [
      userId,
      new Date(Date.now() - 11 * 60_000).toISOString(),
    ]);
    expect((await rejected(h.client.updateWallet({ userId, walletAddress: OTHER_WALLET, sid: signedIn.session!.sid }))).code).toBe(
      status.PERMISSION_DENIED,
    );
    const fresh = await h.client.signInWithX(x);
    const changed = await h.client.updateWallet({ userId, walletAddress: OTHER_WALLET, sid: fresh.session!.sid });
    expect(changed.walletAddress).toBe(OTHER_WALLET);
    expect(changed.walletChangedAt).toEqual(expect.any(String));
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
    const ended = await waitFor(
      () => h.events.find((e) => e.envelope.type === 'session.ended' && (e.envelope.data as SessionEndedV1).userId === user!.id),
      10_000,
      'session.ended',
    );
    expect(ended.envelope.data).toEqual({
      userId: user!.id,
      sessionKey: createHash('sha256').update(sid).digest('base64url'),
      reason: 'logout',
    });
    expect(JSON.stringify(ended.envelope)).not.toContain(sid);
    expect(
      await h.count(`SELECT count(*) FROM outbox WHERE type = 'session.ended' AND envelope -> 'data' ->> 'userId' = $1`, [user!.id]),
    ).toBe(1);
  });
});

// The sign-up / sign-in journey over real HTTP against the real gateway and the real identity service
// (Postgres, NATS JetStream, Redis, filesystem storage), then bad input on every route: each refusal is
// checked for its status, its exact text, and that nothing was written behind it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';
import { RESET_LINK_MESSAGES } from '@clipit/field-rules';

// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const NEW_WALLET = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW';

let seq = 0;
/** A handle (Twitter's rule: ≤ 15 characters) and email no other test uses. */
function person(prefix = 'u') {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return { handle: `${prefix}_${tag}`.slice(0, 15), email: `${prefix}${tag}@example.com` };
}

function signupBody(p: { handle: string; email: string }, patch: Record<string, unknown> = {}) {
  return {
    email: p.email,
    displayName: 'Journey Person',
    twitterHandle: p.handle,
    walletAddress: WALLET,
    role: 'clipper',
    tokenLink: '',
    claimCode: '',
    password: 'first-password',
    ...patch,
  };
}

/** The token of a mailed link to `path` (in its #token= fragment). */
function tokenOf(link: string, path: '/reset-password' | '/verify-email'): string {
  const url = new URL(link);
  expect(url.pathname).toBe(path);
  return url.hash.replace(/^#token=/, '');
}

const cookieOf = (res: Response): string => {
  const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!sid) throw new Error(`no session cookie in ${res.status} answer`);
  return `clipit.sid=${sid}`;
};

describe('auth journey (gateway + identity, real servers)', () => {
  let p: Platform;
  // Sent as our own pages send them: with our Origin (ADR 0004).
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const usersWithHandle = (handle: string) => p.count(`SELECT count(*) FROM users WHERE lower(twitter_username) = lower($1)`, [handle]);

  beforeAll(async () => {
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 10_000, RATE_LIMIT_MAX_PER_HANDLE: 10_000 });
  });

  afterAll(async () => {
    await p?.stop();
  });

  describe('the journey', () => {
    const me = person('journey');
    let cookie = '';
    let userId = '';

    it('signs up with JSON: 201, the public user, and the session cookie', async () => {
      const res = await api('/api/auth/signup', json('POST', signupBody(me, { confirmPassword: 'first-password' })));
      expect(res.status).toBe(201);
      // The session cookie, and the sign-up's events for the next reads to wait for (read-your-writes, ADR 0043).
      const [session, pending, ...more] = res.headers.getSetCookie();
      expect(session).toMatch(/^clipit\.sid=[\w-]{43}; Max-Age=\d{6,}; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(pending).toMatch(/^clipit\.rw=[^;]*user\.registered[^;]*; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(more).toEqual([]);
      cookie = cookieOf(res);
      const body = (await res.json()) as any;
      expect(body).toEqual({
        user: {
          id: expect.any(String),
          email: me.email,
          emailVerified: false,
          displayName: 'Journey Person',
          firstName: null,
          lastName: null,
          twitterUsername: me.handle,
          profileImageUrl: null,
          bannerImageUrl: null,
          walletAddress: WALLET,
          role: 'clipper',
          currentTier: 1,
          nextStreamTime: null,
          isLive: 'false',
          streamerMultiplier: '1.00',
          createdAt: expect.any(String),
        },
      });
      userId = body.user.id;
      expect(await usersWithHandle(me.handle)).toBe(1);
    });

    it('knows who is signed in: GET /api/user/me and /api/auth/user', async () => {
      for (const path of ['/api/user/me', '/api/auth/user']) {
        const res = await api(path, { headers: { cookie } });
        expect(res.status).toBe(200);
        // The user's own answer: kept by no shared cache, revalidated by its ETag (ADR 0045).
        expect(res.headers.get('cache-control')).toBe('private, no-cache');
        expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
        expect(await res.json()).toMatchObject({ id: userId, twitterUsername: me.handle, walletAddress: WALLET, role: 'clipper' });
      }
    });

    it('logs out: 200, the cookie cleared, and the session is over', async () => {
      const res = await api('/api/logout', { method: 'POST', headers: { cookie } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get('set-cookie')).toMatch(/^clipit\.sid=; Max-Age=0; Path=\/;/);
      await expectText(await api('/api/user/me', { headers: { cookie } }), 401, 'Not signed in');
      expect(await p.count(`SELECT count(*) FROM sessions WHERE sess->>'userId' = $1`, [userId])).toBe(0);
    });

    it('logs in with handle and password (any case, with @)', async () => {
      const res = await api('/api/auth/login', json('POST', { twitterHandle: `@${me.handle.toUpperCase()}`, password: 'first-password' }));
      expect(res.status).toBe(200);
      cookie = cookieOf(res);
      expect(((await res.json()) as any).user).toMatchObject({ id: userId, twitterUsername: me.handle });
      expect((await api('/api/user/me', { headers: { cookie } })).status).toBe(200);
    });

    it('asking for a reset with handle and email alone changes nothing while the address is unconfirmed: no mail, same answer', async () => {
      const res = await api(
        '/api/auth/reset-password',
        json('POST', { twitterHandle: me.handle, email: me.email, newPassword: 'attacker-password' }),
      );
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { message: RESET_LINK_MESSAGES.sent } });
      await expectText(
        await api('/api/auth/login', json('POST', { twitterHandle: me.handle, password: 'attacker-password' })),
        401,
        'Invalid Twitter handle or password',
      );
      expect((await api('/api/user/me', { headers: { cookie } })).status).toBe(200);
      // Only the confirmation link sign-up mailed has arrived.
      await p.mail.waitFor(me.email);
      expect(p.mail.to(me.email).map((m) => m.subject)).toEqual(['Confirm your e-mail address for CLIP IT']);
    });

    it('confirms the email address from the link sign-up mailed (over SMTP)', async () => {
      const [mail] = p.mail.to(me.email);
      const token = tokenOf(mail!.links[0]!, '/verify-email');
      const res = await api('/api/auth/verify-email', json('POST', { token }));
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { message: 'Email address confirmed' } });
      await expectText(
        await api('/api/auth/verify-email', json('POST', { token })),
        400,
        'This verification link is invalid or has expired',
      );
      // The dashboard's banner goes: the signed-in user now reads confirmed.
      expect(await (await api('/api/user/me', { headers: { cookie } })).json()).toMatchObject({ emailVerified: true });
    });

    it('resets by the mailed link: nothing changes until it is confirmed; then old sessions end, the old password fails, the new one works', async () => {
      const res = await api(
        '/api/auth/reset-password',
        json('POST', { twitterHandle: me.handle, email: me.email, newPassword: 'second-password' }),
      );
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { message: RESET_LINK_MESSAGES.sent } });
      const mail = await p.mail.waitFor(me.email, { n: 2 });
      expect(mail.subject).toBe('Reset your CLIP IT password');
      const token = tokenOf(mail.links[0]!, '/reset-password');
      // Asked for, not applied: the session stands, the old password still works.
      expect((await api('/api/user/me', { headers: { cookie } })).status).toBe(200);
      const still = await api('/api/auth/login', json('POST', { twitterHandle: me.handle, password: 'first-password' }));
      expect(still.status).toBe(200);
      await still.arrayBuffer();

      const confirmed = await api('/api/auth/reset-password/confirm', json('POST', { token }));
      expect({ status: confirmed.status, body: await confirmed.json() }).toEqual({
        status: 200,
        body: { message: 'Password reset successfully' },
      });
      await expectText(await api('/api/user/me', { headers: { cookie } }), 401, 'Not signed in');
      await expectText(
        await api('/api/auth/login', json('POST', { twitterHandle: me.handle, password: 'first-password' })),
        401,
        'Invalid Twitter handle or password',
      );
      await expectText(
        await api('/api/auth/reset-password/confirm', json('POST', { token })),
        400,
        'This password reset link is invalid or has expired',
      );
      const ok = await api('/api/auth/login', json('POST', { twitterHandle: me.handle, password: 'second-password' }));
      expect(ok.status).toBe(200);
      cookie = cookieOf(ok);
      await ok.arrayBuffer();
    });

    it('replaces the wallet only with the current password (403 otherwise), mails the owner, and shows it on /api/user/me', async () => {
      await expectText(
        await api('/api/user/profile', json('PATCH', { walletAddress: NEW_WALLET }, { cookie })),
        403,
        'Enter your current password to change your wallet address',
      );
      await expectText(
        await api('/api/user/profile', json('PATCH', { walletAddress: NEW_WALLET, currentPassword: 'first-password' }, { cookie })),
        403,
        'Current password is incorrect',
      );
      expect(await (await api('/api/user/me', { headers: { cookie } })).json()).toMatchObject({ walletAddress: WALLET });
      const res = await api(
        '/api/user/profile',
        json('PATCH', { walletAddress: NEW_WALLET, currentPassword: 'second-password' }, { cookie }),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: userId, walletAddress: NEW_WALLET });
      expect(await (await api('/api/user/me', { headers: { cookie } })).json()).toMatchObject({ walletAddress: NEW_WALLET });
      const notice = await p.mail.waitFor(me.email, { n: 3 });
      expect(notice.subject).toBe('Your CLIP IT payout wallet was changed');
      expect(notice.text).toContain(`to ${NEW_WALLET.slice(0, 4)}…${NEW_WALLET.slice(-4)}`);
    });

    it('lists the sessions and signs out everywhere else: the other browser is signed out, this one stays', async () => {
      const other = await fetch(
        ...asOurPage(
          p.url,
          '/api/auth/login',
          json(
            'POST',
            { twitterHandle: me.handle, password: 'second-password' },
            { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' },
          ),
        ),
      );
      const elsewhere = cookieOf(other);
      await other.arrayBuffer();
      expect((await api('/api/user/me', { headers: { cookie: elsewhere } })).status).toBe(200);
      const listed = (await (await api('/api/user/sessions', { headers: { cookie } })).json()) as {
        sessions: Array<{ device: string; current: boolean; address: string | null }>;
      };
      expect(listed.sessions).toHaveLength(2);
      expect(listed.sessions[0]).toMatchObject({ current: true, address: '127.0.0.0/24' });
      expect(listed.sessions[1]).toMatchObject({ current: false, device: 'Firefox on Linux' });

      const ended = await api('/api/user/sessions/sign-out-others', { method: 'POST', headers: { cookie } });
      expect({ status: ended.status, body: await ended.json() }).toEqual({ status: 200, body: { endedSessions: 1 } });
      await expectText(await api('/api/user/me', { headers: { cookie: elsewhere } }), 401, 'Not signed in');
      expect((await api('/api/user/me', { headers: { cookie } })).status).toBe(200);
    });

    it('slides the session: past half its life, a request extends it and re-issues the cookie', async () => {
      // As if the session had been opened 13 days ago: one day left of fourteen.
      await p.db.query(`UPDATE sessions SET expire = now() + interval '1 day' WHERE sess->>'userId' = $1`, [userId]);
      // Thirteen days are far past a gateway's session cache TTL (seconds), so the next request reaches
      // identity: asked here of a replica that has not cached this session (the first one has, for 10 s).
      const replica = (await p.startGateway()).httpUrl;
      const res = await fetch(...asOurPage(replica, '/api/user/me', { headers: { cookie } }));
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(
        new RegExp(`^${cookie.replace('.', '\\.')}; Max-Age=(1209[56]\\d\\d); Path=/; HttpOnly; SameSite=Lax$`),
      );
      await res.arrayBuffer();
      const [row] = (
        await p.db.query(`SELECT extract(epoch FROM expire - now())::int AS left FROM sessions WHERE sess->>'userId' = $1`, [userId])
      ).rows as Array<{ left: number }>;
      expect(row!.left).toBeGreaterThan(13 * 24 * 3600);
      // Fresh again: the next request writes nothing and sends no cookie.
      const again = await fetch(...asOurPage(replica, '/api/user/me', { headers: { cookie } }));
      expect(again.headers.get('set-cookie')).toBeNull();
      await again.arrayBuffer();
    });

    it('GET /api/logout (plain link) ends the session and redirects to /', async () => {
      const res = await api('/api/logout', { headers: { cookie }, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      await res.arrayBuffer();
      await expectText(await api('/api/user/me', { headers: { cookie } }), 401, 'Not signed in');
    });
  });

  describe('the attack of issue 31 (a public handle and a known e-mail address)', () => {
    it("takes nothing over: no session, the password and the wallet unchanged, the link only in the owner's inbox", async () => {
      const victim = person('victim');
      const up = await api('/api/auth/signup', json('POST', signupBody(victim)));
      const victimCookie = cookieOf(up);
      await up.arrayBuffer();
      const confirm = await p.mail.waitFor(victim.email);
      await (await api('/api/auth/verify-email', json('POST', { token: tokenOf(confirm.links[0]!, '/verify-email') }))).arrayBuffer();

      // The attacker asks for a reset with what they know, and gets the same answer as anyone: no cookie.
      const reset = await api(
        '/api/auth/reset-password',
        json('POST', { twitterHandle: victim.handle, email: victim.email, newPassword: 'attacker-password' }),
      );
      expect({ status: reset.status, cookie: reset.headers.get('set-cookie'), body: await reset.json() }).toEqual({
        status: 200,
        cookie: null,
        body: { message: RESET_LINK_MESSAGES.sent },
      });
      await expectText(
        await api('/api/auth/login', json('POST', { twitterHandle: victim.handle, password: 'attacker-password' })),
        401,
        'Invalid Twitter handle or password',
      );
      await expectText(await api('/api/user/profile', json('PATCH', { walletAddress: NEW_WALLET })), 401, 'Not signed in');

      // The link went to the owner's address only; unused, it changes nothing.
      const link = await p.mail.waitFor(victim.email, { n: 2 });
      expect(link.subject).toBe('Reset your CLIP IT password');
      expect(p.mail.received.filter((m) => m.text.includes(tokenOf(link.links[0]!, '/reset-password'))).map((m) => m.to)).toEqual([
        [victim.email],
      ]);
      const owner = await api('/api/auth/login', json('POST', { twitterHandle: victim.handle, password: 'first-password' }));
      expect(owner.status).toBe(200);
      await owner.arrayBuffer();
      expect(await (await api('/api/user/me', { headers: { cookie: victimCookie } })).json()).toMatchObject({ walletAddress: WALLET });
    });
  });

  describe('sign-up with a profile picture (multipart) and /media', () => {
    it('stores the PNG and serves it back, whole and by range', async () => {
      const who = person('pic');
      const form = new FormData();
      for (const [k, v] of Object.entries(signupBody(who, { confirmPassword: 'first-password' }))) form.append(k, String(v));
      form.append('profilePicture', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
      const res = await api('/api/auth/signup', { method: 'POST', body: form });
      expect(res.status).toBe(201);
      const { user } = (await res.json()) as any;
      expect(user.profileImageUrl).toMatch(/^\/media\/profile-images\/[\w.-]+\.png$/);

      const image = await api(user.profileImageUrl);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('content-length')).toBe(String(PNG.length));
      expect(image.headers.get('accept-ranges')).toBe('bytes');
      expect(image.headers.get('cache-control')).toMatch(/public, max-age=\d{7,}/);
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

      const part = await api(user.profileImageUrl, { headers: { range: 'bytes=0-7' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-7/${PNG.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(PNG.subarray(0, 8))).toBe(true);

      const again = await api(user.profileImageUrl, { headers: { 'if-none-match': image.headers.get('etag')! } });
      expect(again.status).toBe(304);
      await again.arrayBuffer();
      await expectText(
        await api(user.profileImageUrl, { headers: { range: `bytes=${PNG.length}-` } }),
        416,
        'Requested range not satisfiable',
      );
    });
  });

  describe('tokens, streamers and claiming a profile', () => {
    it("lists a streamer's token and the streamer", async () => {
      const s = person('streamer');
      const res = await api(
        '/api/auth/signup',
        json('POST', signupBody(s, { role: 'streamer', displayName: 'Token Streamer', tokenLink: 'https://pump.fun/coin/abc' })),
      );
      expect(res.status).toBe(201);
      const { user } = (await res.json()) as any;
      const tokens = (await (await api('/api/tokens')).json()) as any[];
      expect(tokens).toContainEqual({
        id: expect.any(String),
        name: 'Token Streamer',
        streamerId: user.id,
        pumpFunLink: 'https://pump.fun/coin/abc',
      });
      const streamers = (await (await api('/api/streamers')).json()) as any[];
      expect(streamers).toContainEqual({ id: user.id, displayName: 'Token Streamer', twitterUsername: s.handle });
    });

    it('claims a placeholder streamer profile with its code, once', async () => {
      const placeholder = await p.identityClient.createPlaceholderStreamer({
        displayName: 'Placeholder Star',
        twitterUsername: person('ph').handle,
        streamerMultiplier: '1.50',
      });
      const s = person('claim');
      const res = await api(
        '/api/auth/signup',
        json('POST', signupBody(s, { role: 'streamer', displayName: '', claimCode: placeholder.claimCode.toLowerCase() })),
      );
      expect(res.status).toBe(201);
      const body = (await res.json()) as any;
      expect(body.claimedProfile).toEqual({ displayName: 'Placeholder Star' });
      expect(body.user).toMatchObject({ displayName: 'Placeholder Star', streamerMultiplier: '1.50', role: 'streamer' });

      const late = person('late');
      await expectText(
        await api('/api/auth/signup', json('POST', signupBody(late, { role: 'streamer', claimCode: placeholder.claimCode }))),
        400,
        'This claim code has already been used',
      );
      expect(await usersWithHandle(late.handle)).toBe(0);
    });
  });

  describe('bad input on every route: status, text, nothing written', () => {
    describe('POST /api/auth/signup', () => {
      const cases: [string, (b: Record<string, unknown>) => Record<string, unknown>, string][] = [
        ['missing email', ({ email: _e, ...b }) => b, 'Please enter a valid email address'],
        ['invalid email', (b) => ({ ...b, email: 'not-an-email' }), 'Please enter a valid email address'],
        ['missing handle', ({ twitterHandle: _h, ...b }) => b, 'Twitter handle is required'],
        ['missing wallet', ({ walletAddress: _w, ...b }) => b, 'Solana wallet address is required'],
        ['invalid wallet', (b) => ({ ...b, walletAddress: 'abc123' }), 'Please enter a valid Solana wallet address'],
        ['missing role', ({ role: _r, ...b }) => b, 'Please select a role'],
        ['unknown role', (b) => ({ ...b, role: 'admin' }), 'Please select a role'],
        ['invalid token link', (b) => ({ ...b, role: 'streamer', tokenLink: 'pump fun' }), 'Please enter a valid URL'],
        ['short password', (b) => ({ ...b, password: 'short' }), 'Password must be at least 8 characters'],
        ['missing password', ({ password: _p, ...b }) => b, 'Password must be at least 8 characters'],
        ['numeric password', (b) => ({ ...b, password: 12345678 }), 'Password must be text'],
        ['handle as a list', (b) => ({ ...b, twitterHandle: ['a'] }), 'Twitter handle must be text'],
        ['an unknown field', (b) => ({ ...b, isAdmin: true }), 'Unknown field: isAdmin'],
        ['a claim code for a clipper', (b) => ({ ...b, claimCode: 'CLAIM-ABCD1234' }), 'Only streamers can claim a profile'],
        ['an unknown claim code', (b) => ({ ...b, role: 'streamer', claimCode: 'CLAIM-ZZZZ9999' }), 'Invalid claim code'],
      ];
      it.each(cases)('%s → 400 with the spec text; the handle can still sign up', async (_label, mutate, text) => {
        const who = person('bad');
        await expectText(await api('/api/auth/signup', json('POST', mutate(signupBody(who)))), 400, text);
        expect(await usersWithHandle(who.handle)).toBe(0);
        const ok = await api('/api/auth/signup', json('POST', signupBody(who)));
        expect(ok.status).toBe(201);
        await ok.arrayBuffer();
      });

      it('a taken handle or email → 409 with the owner’s text', async () => {
        const who = person('dup');
        const first = await api('/api/auth/signup', json('POST', signupBody(who)));
        expect(first.status).toBe(201);
        await first.arrayBuffer();
        await expectText(
          await api('/api/auth/signup', json('POST', signupBody({ ...person('dup2'), handle: who.handle }))),
          409,
          'That Twitter handle is already registered',
        );
        await expectText(
          await api('/api/auth/signup', json('POST', signupBody({ ...person('dup3'), email: who.email }))),
          409,
          'An account with this email already exists',
        );
        expect(await usersWithHandle(who.handle)).toBe(1);
      });

      it('malformed JSON → 400; not JSON → 415; over BODY_LIMIT_BYTES → 413', async () => {
        const who = person('body');
        await expectText(await api('/api/auth/signup', json('POST', '{"email":')), 400, 'Request body is not valid JSON');
        const text = await api('/api/auth/signup', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify(signupBody(who)),
        });
        await expectText(
          text,
          415,
          'Unsupported content type: send JSON (application/json), or multipart/form-data where a file is uploaded',
        );
        await expectText(
          await api('/api/auth/signup', json('POST', signupBody(who, { displayName: 'x'.repeat(1024 * 1024 + 10) }))),
          413,
          'Request body is too large',
        );
        expect(await usersWithHandle(who.handle)).toBe(0);
      });

      it('a picture over 5 MB → 413 while streaming; a non-image → 400; nothing stored, nobody signed up', async () => {
        const filesBefore = await p.storedFiles('profile-images');
        const who = person('bigpic');
        const send = (bytes: Buffer, type: string) => {
          const form = new FormData();
          for (const [k, v] of Object.entries(signupBody(who))) form.append(k, String(v));
          form.append('profilePicture', new Blob([new Uint8Array(bytes)], { type }), 'picture');
          return api('/api/auth/signup', { method: 'POST', body: form });
        };
        await expectText(
          await send(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png'),
          413,
          'Profile picture must be 5 MB or smaller',
        );
        await expectText(await send(Buffer.from('just some text'), 'text/plain'), 400, 'Profile picture must be an image file');
        await expectText(
          await send(Buffer.from('<html>not really a png</html>'), 'image/png'),
          400,
          'Profile picture must be an image file',
        );
        expect(await usersWithHandle(who.handle)).toBe(0);
        expect(await p.storedFiles('profile-images')).toEqual(filesBefore);
      });

      it('from a foreign origin → 403, nobody signed up', async () => {
        const who = person('xsite');
        await expectText(
          await api('/api/auth/signup', json('POST', signupBody(who), { origin: 'https://evil.example' })),
          403,
          'Cross-site request refused',
        );
        expect(await usersWithHandle(who.handle)).toBe(0);
      });
    });

    describe('POST /api/auth/login', () => {
      it.each([
        [{ password: 'whatever1' }, 'Twitter handle is required'],
        [{ twitterHandle: 'someone' }, 'Password is required'],
        [{ twitterHandle: 'someone', password: '' }, 'Password is required'],
        [{ twitterHandle: 'someone', password: 123 }, 'Password must be text'],
        [{ twitterHandle: 'someone', password: 'x', extra: 1 }, 'Unknown field: extra'],
      ])('%j → 400 %s', async (body, text) => {
        await expectText(await api('/api/auth/login', json('POST', body)), 400, text);
      });

      it('wrong password and unknown handle → the same 401, no session created', async () => {
        const who = person('login');
        const up = await api('/api/auth/signup', json('POST', signupBody(who)));
        const { user } = (await up.json()) as any;
        const sessionsBefore = await p.count(`SELECT count(*) FROM sessions WHERE sess->>'userId' = $1`, [user.id]);
        await expectText(
          await api('/api/auth/login', json('POST', { twitterHandle: who.handle, password: 'wrong-password' })),
          401,
          'Invalid Twitter handle or password',
        );
        await expectText(
          await api('/api/auth/login', json('POST', { twitterHandle: 'nobody_here_x', password: 'wrong-password' })),
          401,
          'Invalid Twitter handle or password',
        );
        expect(await p.count(`SELECT count(*) FROM sessions WHERE sess->>'userId' = $1`, [user.id])).toBe(sessionsBefore);
      });

      it('from a foreign origin → 403; oversized → 413', async () => {
        await expectText(
          await api('/api/auth/login', json('POST', { twitterHandle: 'a', password: 'b' }, { referer: 'https://evil.example/x' })),
          403,
          'Cross-site request refused',
        );
        await expectText(
          await api('/api/auth/login', json('POST', { twitterHandle: 'a', password: 'b'.repeat(1024 * 1024 + 1) })),
          413,
          'Request body is too large',
        );
      });
    });

    describe('POST /api/auth/reset-password', () => {
      let who: { handle: string; email: string };
      beforeAll(async () => {
        who = person('reset');
        const up = await api('/api/auth/signup', json('POST', signupBody(who)));
        expect(up.status).toBe(201);
        await up.arrayBuffer();
      });
      const resets = () => p.count(`SELECT count(*) FROM password_resets`);
      const stillOldPassword = async () => {
        const res = await api('/api/auth/login', json('POST', { twitterHandle: who.handle, password: 'first-password' }));
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      };

      type Who = typeof who;
      it.each([
        ['missing handle', (w: Who) => ({ email: w.email, newPassword: 'another-password' }), 400, 'Twitter handle is required'],
        [
          'invalid email',
          (w: Who) => ({ twitterHandle: w.handle, email: 'nope', newPassword: 'another-password' }),
          400,
          'Please enter a valid email address',
        ],
        [
          'short password',
          (w: Who) => ({ twitterHandle: w.handle, email: w.email, newPassword: 'short' }),
          400,
          'Password must be at least 8 characters',
        ],
        [
          'numeric password',
          (w: Who) => ({ twitterHandle: w.handle, email: w.email, newPassword: 12345678 }),
          400,
          'Password must be text',
        ],
      ])('%s → %i with the text; the password is unchanged', async (_label, body, status, text) => {
        const before = await resets();
        await expectText(await api('/api/auth/reset-password', json('POST', body(who))), status, text);
        expect(await resets()).toBe(before);
        await stillOldPassword();
      });

      it('an email of no such account → the same 200 as a match, and no mail; the password is unchanged', async () => {
        const res = await api(
          '/api/auth/reset-password',
          json('POST', { twitterHandle: who.handle, email: 'other@example.com', newPassword: 'another-password' }),
        );
        expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { message: RESET_LINK_MESSAGES.sent } });
        expect(p.mail.to('other@example.com')).toEqual([]);
        await stillOldPassword();
      });

      it.each([
        ['no token', {}],
        ['a token cut short', { token: 'abc' }],
        ['a token of no request', { token: 'A'.repeat(43) }],
      ])('confirming with %s → 400 with the text; the password is unchanged', async (_label, body) => {
        const before = await resets();
        await expectText(
          await api('/api/auth/reset-password/confirm', json('POST', body)),
          400,
          'This password reset link is invalid or has expired',
        );
        expect(await resets()).toBe(before);
        await stillOldPassword();
      });

      it('from a foreign origin → 403; the password is unchanged', async () => {
        const before = await resets();
        await expectText(
          await api(
            '/api/auth/reset-password',
            json(
              'POST',
              { twitterHandle: who.handle, email: who.email, newPassword: 'another-password' },
              { origin: 'https://evil.example' },
            ),
          ),
          403,
          'Cross-site request refused',
        );
        expect(await resets()).toBe(before);
        await stillOldPassword();
      });
    });

    describe('GET /api/user/me and /api/auth/user', () => {
      it.each(['/api/user/me', '/api/auth/user'])('%s signed out, or with a dead cookie → 401 Not signed in', async (path) => {
        await expectText(await api(path), 401, 'Not signed in');
        const stale = await api(path, { headers: { cookie: 'clipit.sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
        expect(stale.headers.get('set-cookie')).toMatch(/^clipit\.sid=; Max-Age=0/);
        await expectText(stale, 401, 'Not signed in');
      });
    });

    describe('PATCH /api/user/profile', () => {
      let cookie = '';
      let userId = '';
      beforeAll(async () => {
        const up = await api('/api/auth/signup', json('POST', signupBody(person('wallet'))));
        cookie = cookieOf(up);
        userId = ((await up.json()) as any).user.id;
      });
      const walletInDb = async () =>
        (await p.db.query<{ w: string }>('SELECT wallet_address AS w FROM users WHERE id = $1', [userId])).rows[0]!.w;

      it.each([
        [{}, 'Wallet address is required'],
        [{ walletAddress: '' }, 'Wallet address is required'],
        [{ walletAddress: 'bad-wallet' }, 'Please enter a valid Solana wallet address'],
        [{ walletAddress: 42 }, 'Please enter a valid Solana wallet address'],
        [{ walletAddress: NEW_WALLET, role: 'admin' }, 'Unknown field: role'],
      ])('%j → 400 %s; the wallet is unchanged', async (body, text) => {
        await expectText(await api('/api/user/profile', json('PATCH', body, { cookie })), 400, text);
        expect(await walletInDb()).toBe(WALLET);
      });

      it('signed out → 401; foreign origin → 403; the wallet is unchanged', async () => {
        await expectText(await api('/api/user/profile', json('PATCH', { walletAddress: NEW_WALLET })), 401, 'Not signed in');
        await expectText(
          await api('/api/user/profile', json('PATCH', { walletAddress: NEW_WALLET }, { cookie, origin: 'https://evil.example' })),
          403,
          'Cross-site request refused',
        );
        expect(await walletInDb()).toBe(WALLET);
      });
    });

    describe('POST /api/logout', () => {
      it('from a foreign origin → 403 and the session lives on', async () => {
        const up = await api('/api/auth/signup', json('POST', signupBody(person('stay'))));
        const cookie = cookieOf(up);
        await up.arrayBuffer();
        await expectText(
          await api('/api/logout', { method: 'POST', headers: { cookie, origin: 'https://evil.example' } }),
          403,
          'Cross-site request refused',
        );
        expect((await api('/api/user/me', { headers: { cookie } })).status).toBe(200);
      });
    });

    describe('GET /api/tokens, /api/streamers, /media and unknown routes', () => {
      it('read routes ignore the origin (nothing changes)', async () => {
        for (const path of ['/api/tokens', '/api/streamers']) {
          const res = await api(path, { headers: { origin: 'https://evil.example' } });
          expect(res.status).toBe(200);
          expect(Array.isArray(await res.json())).toBe(true);
        }
      });

      it('missing objects and traversal → 404 text', async () => {
        await expectText(await api('/media/profile-images/nope.png'), 404, 'Not found');
        await expectText(await api('/media/..%2f..%2fetc%2fpasswd'), 404, 'Not found');
      });

      it('unknown API routes → 404 text', async () => {
        await expectText(await api('/api/does-not-exist'), 404, 'No such route: GET /api/does-not-exist');
      });
    });
  });

  describe('attempt limits shared by two gateway replicas', () => {
    it('counts login attempts per handle across replicas and answers 429 with Retry-After', async () => {
      const prefix = `${p.names.redisKeyPrefix}replicas:`;
      const a = await p.startGateway({ REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX_PER_HANDLE: 3 });
      const b = await p.startGateway({ REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX_PER_HANDLE: 3 });
      const statuses: number[] = [];
      for (const g of [a, b, a, b]) {
        const res = await fetch(`${g.httpUrl}/api/auth/login`, json('POST', { twitterHandle: 'Limited_One', password: 'wrong-password' }));
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          await expectText(res, 429, 'Too many attempts. Please wait a few minutes and try again.');
        } else {
          await res.arrayBuffer();
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('the API reference', () => {
    it('GET /api/docs lists every route with its request schema', async () => {
      const doc = (await (await api('/api/docs')).json()) as any;
      expect(doc.openapi).toBe('3.1.0');
      for (const [path, method] of [
        ['/api/auth/signup', 'post'],
        ['/api/auth/login', 'post'],
        ['/api/auth/reset-password', 'post'],
        ['/api/auth/reset-password/confirm', 'post'],
        ['/api/auth/verify-email', 'post'],
        ['/api/user/me', 'get'],
        ['/api/auth/user', 'get'],
        ['/api/user/profile', 'patch'],
        ['/api/logout', 'post'],
        ['/api/logout', 'get'],
        ['/api/tokens', 'get'],
        ['/api/streamers', 'get'],
        ['/media/{key}', 'get'],
      ] as const) {
        expect(doc.paths[path]?.[method]).toBeDefined();
      }
      expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual([
        'twitterHandle',
        'password',
      ]);
    });
  });
});

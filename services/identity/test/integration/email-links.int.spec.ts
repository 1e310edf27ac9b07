// Links identity mails (ADR 0031), over real SMTP to a server in this process: sign-up mails a link that
// verifies the address; a password reset is asked for with handle, e-mail and the new password, mails a
// one-time link to a verified address only, and changes nothing until the link is confirmed; then the new
// password works, every session of the account ends, and the link and any other one stop working.
// A relay that is away delays a message and never loses it.
import { createHash } from 'node:crypto';
import { startMailServer, waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, rejected, startIdentity, type IdentityHarness } from '../support/identity-harness.js';

const tokenOf = (link: string): string => {
  const token = new URL(link).hash.replace(/^#token=/, '');
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
};
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Waits until the queue records the message to `email` as sent and clears its body: the relay has the
 * message before the loop records it, so a test that saw it arrive waits for that too.
 */
const recordedSent = (h: IdentityHarness, email: string, timeoutMs: number) =>
  waitFor(
    async () =>
      (await h.count(`SELECT count(*) FROM mail_queue WHERE recipient = $1 AND sent_at IS NOT NULL AND body = ''`, [email])) === 1 ||
      undefined,
    timeoutMs,
    'the message recorded as sent, its body cleared',
  );

describe('e-mail links', () => {
  let h: IdentityHarness;

  beforeAll(async () => {
    h = await startIdentity();
  });

  afterAll(async () => {
    await h?.stop();
  });

  /** Signs up, opens the verification link mailed, and answers the account and its first session. */
  async function verifiedAccount() {
    const req = newSignUp();
    const result = await h.client.signUp(req);
    const mail = await h.mail.waitFor(req.email);
    await h.client.verifyEmail({ token: tokenOf(mail.links[0]!) });
    return { req, userId: result.user!.id, sid: result.session!.sid };
  }

  /** Asks for a reset and answers the link mailed for it (the `n`-th message to the address). */
  async function resetLink(req: ReturnType<typeof newSignUp>, newPassword: string, n: number): Promise<string> {
    await expect(
      h.client.requestPasswordReset({ twitterHandle: req.twitterHandle, email: req.email, newPassword, client: { ip: '198.51.100.20' } }),
    ).resolves.toEqual({});
    const mail = await h.mail.waitFor(req.email, { n });
    expect(mail.subject).toBe('Reset your CLIP IT password');
    return mail.links[0]!;
  }

  it('sign-up mails a link that verifies the address, once', async () => {
    const req = newSignUp();
    const { user } = await h.client.signUp(req);
    expect(user!.emailVerifiedAt).toBeUndefined();

    const mail = await h.mail.waitFor(req.email);
    expect({ subject: mail.subject, fromHeader: mail.fromHeader, to: mail.to }).toEqual({
      subject: 'Confirm your e-mail address for CLIP IT',
      fromHeader: '"CLIP IT" <no-reply@clipit.local>',
      to: [req.email.toLowerCase()],
    });
    expect(mail.links).toHaveLength(1);
    expect(mail.links[0]).toMatch(/^http:\/\/clipit\.test\/verify-email#token=/);
    const token = tokenOf(mail.links[0]!);
    // Only the token's hash is kept, and the sent message's body is gone from the queue.
    expect(
      await h.count('SELECT count(*) FROM email_verifications WHERE user_id = $1 AND token_hash = $2', [user!.id, sha256(token)]),
    ).toBe(1);
    await recordedSent(h, req.email, 10_000);

    const verified = await h.client.verifyEmail({ token });
    expect(verified).toMatchObject({ id: user!.id, emailVerifiedAt: expect.any(String) });
    expect((await h.client.getUser({ id: user!.id })).emailVerifiedAt).toBe(verified.emailVerifiedAt);

    const again = await rejected(h.client.verifyEmail({ token }));
    expect({ code: again.code, message: again.message }).toEqual({ code: 3, message: 'This verification link is invalid or has expired' });
    const unknown = await rejected(h.client.verifyEmail({ token: 'A'.repeat(43) }));
    expect(unknown.message).toBe('This verification link is invalid or has expired');
    const malformed = await rejected(h.client.verifyEmail({ token: 'not a token' }));
    expect(malformed.message).toBe('This verification link is invalid or has expired');
  });

  it('mails another verification link on request, and none once the address is verified', async () => {
    const req = newSignUp();
    const { user } = await h.client.signUp(req);
    await h.mail.waitFor(req.email);
    await expect(h.client.sendEmailVerification({ userId: user!.id })).resolves.toEqual({ sent: true });
    const second = await h.mail.waitFor(req.email, { n: 2 });
    await h.client.verifyEmail({ token: tokenOf(second.links[0]!) });
    await expect(h.client.sendEmailVerification({ userId: user!.id })).resolves.toEqual({ sent: false });
    const missing = await rejected(h.client.sendEmailVerification({ userId: '00000000-0000-4000-8000-000000000000' }));
    expect(missing.message).toBe('User not found');
  });

  it('a reset changes nothing until its link is confirmed; then the new password works, every session ends, and the link is spent', async () => {
    const { req, userId, sid } = await verifiedAccount();
    const second = await h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} });

    const link = await resetLink(req, 'brand-new-password', 2);
    expect(link).toMatch(/^http:\/\/clipit\.test\/reset-password#token=/);
    const token = tokenOf(link);
    // Asked for, not applied: the old password still signs in, the new one not yet, the sessions stand.
    await expect(h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} })).resolves.toMatchObject({
      user: { id: userId },
    });
    expect((await rejected(h.client.logIn({ twitterHandle: req.twitterHandle, password: 'brand-new-password', client: {} }))).code).toBe(
      16,
    );
    await expect(h.client.resolveSession({ sid })).resolves.toMatchObject({ id: userId });
    // Kept: the token's hash and the new password's hash, never either in clear.
    const { rows } = await h.db.query<{ token_hash: string; password_hash: string }>(
      'SELECT token_hash, password_hash FROM password_reset_requests WHERE user_id = $1',
      [userId],
    );
    expect(rows).toEqual([{ token_hash: sha256(token), password_hash: expect.stringMatching(/^scrypt\$/) }]);
    expect(JSON.stringify(rows)).not.toContain('brand-new-password');

    await expect(h.client.confirmPasswordReset({ token, client: { ip: '198.51.100.20' } })).resolves.toEqual({ endedSessions: 3, userId });
    await expect(h.client.logIn({ twitterHandle: req.twitterHandle, password: 'brand-new-password', client: {} })).resolves.toMatchObject({
      user: { id: userId },
    });
    expect((await rejected(h.client.logIn({ twitterHandle: req.twitterHandle, password: req.password, client: {} }))).code).toBe(16);
    for (const s of [sid, second.session!.sid]) expect((await rejected(h.client.resolveSession({ sid: s }))).code).toBe(16);
    const ended = await waitFor(
      () => h.events.find((e) => e.envelope.type === 'user.sessions-ended' && (e.envelope.data as { userId: string }).userId === userId),
      10_000,
      'user.sessions-ended',
    );
    expect(ended.envelope.data).toEqual({ userId, reason: 'password-reset', endedSessions: 3 });
    expect(await h.count('SELECT count(*) FROM password_resets WHERE user_id = $1', [userId])).toBe(1);

    const spent = await rejected(h.client.confirmPasswordReset({ token, client: {} }));
    expect({ code: spent.code, message: spent.message }).toEqual({
      code: 3,
      message: 'This password reset link is invalid or has expired',
    });
  });

  it('confirming one link spends every other link of the account; an expired link changes nothing', async () => {
    const { req, userId } = await verifiedAccount();
    const first = tokenOf(await resetLink(req, 'first-new-password', 2));
    const second = tokenOf(await resetLink(req, 'second-new-password', 3));
    await h.client.confirmPasswordReset({ token: second, client: {} });
    expect((await rejected(h.client.confirmPasswordReset({ token: first, client: {} }))).message).toBe(
      'This password reset link is invalid or has expired',
    );
    await expect(h.client.logIn({ twitterHandle: req.twitterHandle, password: 'second-new-password', client: {} })).resolves.toMatchObject({
      user: { id: userId },
    });

    const late = tokenOf(await resetLink(req, 'too-late-password', 4));
    await h.db.query(`UPDATE password_reset_requests SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(late)]);
    expect((await rejected(h.client.confirmPasswordReset({ token: late, client: {} }))).message).toBe(
      'This password reset link is invalid or has expired',
    );
    await expect(h.client.logIn({ twitterHandle: req.twitterHandle, password: 'second-new-password', client: {} })).resolves.toMatchObject({
      user: { id: userId },
    });
  });

  it('answers the same, and mails nothing, when nothing matches, when the address is not verified, or past 5 links an hour', async () => {
    // Nothing matches: a row with neither account nor token, and no mail.
    const stranger = newSignUp();
    await expect(
      h.client.requestPasswordReset({
        twitterHandle: stranger.twitterHandle,
        email: stranger.email,
        newPassword: 'whatever-password',
        client: { ip: '198.51.100.21' },
      }),
    ).resolves.toEqual({});
    // Matched after the answer: then nothing is kept of it but when and from where.
    await waitFor(
      async () =>
        (await h.count(`SELECT count(*) FROM password_reset_requests WHERE ip = '198.51.100.21' AND processed_at IS NOT NULL`)) === 1
          ? true
          : undefined,
      10_000,
      'the request matched',
    );
    expect(
      await h.count(
        `SELECT count(*) FROM password_reset_requests WHERE ip = '198.51.100.21' AND user_id IS NULL AND token_hash IS NULL AND password_hash IS NULL AND handle IS NULL AND email IS NULL`,
      ),
    ).toBe(1);

    // An account whose address is not verified: no link goes to it.
    const unverified = newSignUp();
    await h.client.signUp(unverified);
    await h.mail.waitFor(unverified.email);
    await expect(
      h.client.requestPasswordReset({
        twitterHandle: unverified.twitterHandle,
        email: unverified.email,
        newPassword: 'whatever-password',
        client: {},
      }),
    ).resolves.toEqual({});

    // A verified account: five links within the hour, then none.
    const { req } = await verifiedAccount();
    for (let n = 2; n <= 6; n += 1) await resetLink(req, `password-number-${n}`, n);
    await expect(
      h.client.requestPasswordReset({ twitterHandle: req.twitterHandle, email: req.email, newPassword: 'password-number-7', client: {} }),
    ).resolves.toEqual({});

    // Whatever is still pending is matched and delivered within a round or two; nothing more came.
    await waitFor(
      async () =>
        (await h.count('SELECT count(*) FROM mail_queue WHERE sent_at IS NULL AND dropped_at IS NULL')) +
          (await h.count('SELECT count(*) FROM password_reset_requests WHERE processed_at IS NULL')) ===
        0
          ? true
          : undefined,
      10_000,
      'the queue empty',
    );
    expect(h.mail.to(stranger.email)).toEqual([]);
    expect(h.mail.to(unverified.email).map((m) => m.subject)).toEqual(['Confirm your e-mail address for CLIP IT']);
    expect(h.mail.to(req.email)).toHaveLength(6);
  });

  it('mails no link for a request asked before the address was verified, even when it is matched after', async () => {
    const { req } = await verifiedAccount();
    const sent = h.mail.to(req.email).length;
    await h.db.query(
      `INSERT INTO password_reset_requests (id, password_hash, created_at, expires_at, handle, email)
       VALUES (gen_random_uuid(), 'scrypt$early', now() - interval '1 hour', now() + interval '10 minutes', $1, $2)`,
      [req.twitterHandle, req.email],
    );
    await waitFor(
      async () =>
        (await h.count(`SELECT count(*) FROM password_reset_requests WHERE password_hash = 'scrypt$early'`)) === 0 ? true : undefined,
      10_000,
      'the early request settled',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.mail.to(req.email)).toHaveLength(sent);
  });

  it("drops, unmailed, a request that waited past its link's lifetime to be matched (the mail loop was down)", async () => {
    const { req } = await verifiedAccount();
    const sent = h.mail.to(req.email).length;
    await h.db.query(
      `INSERT INTO password_reset_requests (id, password_hash, created_at, expires_at, handle, email)
       VALUES (gen_random_uuid(), 'scrypt$stale', now() - interval '31 minutes', now() - interval '1 minute', $1, $2)`,
      [req.twitterHandle, req.email],
    );
    await waitFor(
      async () =>
        (await h.count(`SELECT count(*) FROM password_reset_requests WHERE password_hash = 'scrypt$stale'`)) === 0 ? true : undefined,
      10_000,
      'the stale request settled',
    );
    expect(await h.count(`SELECT count(*) FROM password_reset_requests WHERE processed_at IS NULL OR handle IS NOT NULL`)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.mail.to(req.email)).toHaveLength(sent);
  });

  it('refuses a reset whose fields are wrong, as the old route did', async () => {
    const bad = await rejected(
      h.client.requestPasswordReset({ twitterHandle: 'someone', email: 'not-an-email', newPassword: 'password123', client: {} }),
    );
    expect(bad.code).toBe(3);
    const short = await rejected(
      h.client.requestPasswordReset({ twitterHandle: 'someone', email: 'someone@example.com', newPassword: 'short', client: {} }),
    );
    expect(short.code).toBe(3);
  });
});

describe('mail while the relay is away', () => {
  let h: IdentityHarness;
  let refusing = true;

  beforeAll(async () => {
    h = await startIdentity({}, { mail: await startMailServer({ refuse: () => refusing }) });
  });

  afterAll(async () => {
    await h?.stop();
    await h?.mail.close();
  });

  it('keeps a message queued, tried again with backoff, and delivers it when the relay takes it', async () => {
    const req = newSignUp();
    await h.client.signUp(req);
    const tried = await waitFor(
      async () => {
        const { rows } = await h.db.query<{ attempts: number; last_error: string }>(
          'SELECT attempts, last_error FROM mail_queue WHERE recipient = $1 AND sent_at IS NULL',
          [req.email],
        );
        return rows[0] && rows[0].attempts >= 2 ? rows[0] : undefined;
      },
      15_000,
      'two refused attempts',
    );
    expect(tried.last_error).toMatch(/421|not available/i);
    expect(h.mail.to(req.email)).toEqual([]);

    refusing = false;
    const mail = await h.mail.waitFor(req.email, { timeoutMs: 15_000 });
    expect(mail.subject).toBe('Confirm your e-mail address for CLIP IT');
    await recordedSent(h, req.email, 5_000);
  });

  it('drops, unsent, a message whose link expired before the relay took it', async () => {
    refusing = true;
    const req = newSignUp();
    await h.client.signUp(req);
    await waitFor(
      async () =>
        (await h.count('SELECT count(*) FROM mail_queue WHERE recipient = $1 AND attempts >= 1', [req.email])) > 0 ? true : undefined,
      10_000,
      'a refused attempt',
    );
    await h.db.query(`UPDATE mail_queue SET expires_at = now() - interval '1 second', next_attempt_at = now() WHERE recipient = $1`, [
      req.email,
    ]);
    await waitFor(
      async () =>
        (await h.count(`SELECT count(*) FROM mail_queue WHERE recipient = $1 AND dropped_at IS NOT NULL AND body = ''`, [req.email])) > 0
          ? true
          : undefined,
      10_000,
      'the message dropped',
    );
    refusing = false;
    expect(h.mail.to(req.email)).toEqual([]);
  });
});

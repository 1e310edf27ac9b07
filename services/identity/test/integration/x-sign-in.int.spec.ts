import { status } from '@grpc/grpc-js';
import { parseEventData, type UserXLinkedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, rejected, startIdentity, type IdentityHarness, type ReceivedEvent } from '../support/identity-harness.js';

// SignInWithX against the real app: Postgres (the migration's unique X id), the outbox and JetStream.

let h: IdentityHarness;
let seq = 0;

beforeAll(async () => {
  h = await startIdentity();
});

afterAll(async () => {
  await h?.stop();
});

/** An X user no other test here uses: a 19-digit id and a handle of at most 15 characters. */
function xUser(handle?: string) {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return {
    xUserId: `17${String(Date.now()).padStart(15, '0')}${String(seq).padStart(2, '0')}`.slice(0, 19),
    xUsername: handle ?? `x_${tag}`,
    name: `X Person ${seq}`,
    profileImageUrl: `https://pbs.twimg.com/profile_images/${tag}.jpg`,
  };
}
const client = { ip: '203.0.113.9', userAgent: 'x-sign-in-test' };

function linkedEvents(userId: string): ReceivedEvent[] {
  return h.events.filter((e) => e.envelope.type === 'user.x-linked' && (e.envelope.data as UserXLinkedV1).userId === userId);
}

describe('SignInWithX', () => {
  it('makes a password-less clipper for a new X user, with a working session, user.registered and user.x-linked', async () => {
    const x = xUser();
    const result = await h.client.signInWithX({ ...x, client });
    expect(result).toMatchObject({
      created: true,
      linked: true,
      user: { twitterUsername: x.xUsername, displayName: x.name, profileImageUrl: x.profileImageUrl, role: 'clipper' },
    });
    expect(result.user!.walletAddress).toBeUndefined();
    expect(result.user!.email).toBeUndefined();
    const row = (await h.db.query('SELECT password_hash, email, x_user_id, x_linked_at FROM users WHERE id = $1', [result.user!.id]))
      .rows[0];
    expect(row).toMatchObject({ password_hash: null, email: null, x_user_id: x.xUserId });
    expect(row.x_linked_at).toBeInstanceOf(Date);

    const me = await h.client.resolveSession({ sid: result.session!.sid });
    expect(me.id).toBe(result.user!.id);

    await waitFor(() => linkedEvents(result.user!.id)[0], 10_000, 'user.x-linked');
    const linked = parseEventData('user.x-linked', linkedEvents(result.user!.id)[0]!.envelope.data);
    expect(linked).toEqual({
      userId: result.user!.id,
      xUserId: x.xUserId,
      xUsername: x.xUsername,
      linkedAt: (row.x_linked_at as Date).toISOString(),
    });
    const registered = h.events.find(
      (e) => e.envelope.type === 'user.registered' && (e.envelope.data as { user: { id: string } }).user.id === result.user!.id,
    );
    expect(registered?.envelope.data).toMatchObject({ claimedPlaceholderId: null, user: { role: 'clipper', walletAddress: null } });
  });

  it('signs the same X user into the same account next time, without linking again', async () => {
    const x = xUser();
    const first = await h.client.signInWithX({ ...x, client });
    // X handles change; the id does not.
    const again = await h.client.signInWithX({ ...x, xUsername: `${x.xUsername.slice(0, 12)}_2`, client });
    expect(again).toMatchObject({ created: false, linked: false, user: { id: first.user!.id, twitterUsername: x.xUsername } });
    expect(again.session!.sid).not.toBe(first.session!.sid);
    await waitFor(() => linkedEvents(first.user!.id)[0], 10_000, 'user.x-linked');
    expect(await h.count('SELECT count(*) FROM users WHERE x_user_id = $1', [x.xUserId])).toBe(1);
  });

  it('links the password account whose handle is the X username (any case), which keeps its password', async () => {
    const signUp = newSignUp();
    const account = await h.client.signUp(signUp);
    const x = xUser(signUp.twitterHandle.toUpperCase());
    const result = await h.client.signInWithX({ ...x, client });
    expect(result).toMatchObject({
      created: false,
      linked: true,
      user: { id: account.user!.id, email: signUp.email, walletAddress: signUp.walletAddress },
    });
    await waitFor(() => linkedEvents(account.user!.id)[0], 10_000, 'user.x-linked');
    const login = await h.client.logIn({ twitterHandle: signUp.twitterHandle, password: signUp.password, client });
    expect(login.user!.id).toBe(account.user!.id);
  });

  it('links a signed-in account once: a second X account, or an X account of another user, is refused', async () => {
    const mine = await h.client.signUp(newSignUp());
    const x = xUser();
    const linked = await h.client.signInWithX({ ...x, linkUserId: mine.user!.id, client });
    expect(linked).toMatchObject({ linked: true, user: { id: mine.user!.id } });

    const second = await rejected(h.client.signInWithX({ ...xUser(), linkUserId: mine.user!.id, client }));
    expect([second.code, second.message]).toEqual([status.FAILED_PRECONDITION, 'Your account is already linked to a different X account']);

    const other = await h.client.signUp(newSignUp());
    const taken = await rejected(h.client.signInWithX({ ...x, linkUserId: other.user!.id, client }));
    expect([taken.code, taken.message]).toEqual([status.ALREADY_EXISTS, 'This X account is already linked to another CLIP IT account']);
    expect(await h.count('SELECT count(*) FROM users WHERE x_user_id IS NOT NULL AND id = $1', [other.user!.id])).toBe(0);
  });

  it('refuses the X user whose handle belongs to an account linked to another X id', async () => {
    const first = xUser();
    await h.client.signInWithX({ ...first, client });
    const err = await rejected(h.client.signInWithX({ ...xUser(first.xUsername), client }));
    expect([err.code, err.message]).toEqual([
      status.FAILED_PRECONDITION,
      'The CLIP IT account with this X handle is linked to a different X account',
    ]);
  });

  it('never lets a password log-in into an account made by X, with the normal refusal', async () => {
    const x = xUser();
    await h.client.signInWithX({ ...x, client });
    const err = await rejected(h.client.logIn({ twitterHandle: x.xUsername, password: 'password123', client }));
    expect([err.code, err.message]).toEqual([status.UNAUTHENTICATED, 'Invalid Twitter handle or password']);
  });

  it('gives one account to two simultaneous first sign-ins of one X user', async () => {
    const x = xUser();
    const [a, b] = await Promise.all([h.client.signInWithX({ ...x, client }), h.client.signInWithX({ ...x, client })]);
    expect(a.user!.id).toBe(b.user!.id);
    expect(await h.count('SELECT count(*) FROM users WHERE x_user_id = $1', [x.xUserId])).toBe(1);
  });

  it('refuses what is not an X user', async () => {
    const err = await rejected(h.client.signInWithX({ xUserId: 'not-a-number', xUsername: 'someone', client }));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'X did not return a usable profile']);
  });
});

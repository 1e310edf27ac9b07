import { status } from '@grpc/grpc-js';
import { parseEventData, subjectFor, type TokenChangedV1, type UserRegisteredV1 } from '@clipit/contracts';
import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { runWithCorrelation } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, rejected, startIdentity, type IdentityHarness, type ReceivedEvent } from '../support/identity-harness.js';

// Streamers managing their tokens (spec 02 §5 "Token") against the real identity: the rules, and the
// token.changed each change publishes through the outbox.

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});

afterAll(async () => {
  await h?.stop();
});

const LINK = 'https://pump.fun/coin/abc123';

async function signUp(role: 'streamer' | 'clipper', tokenLink?: string): Promise<string> {
  const { user } = await h.client.signUp(newSignUp({ role, ...(tokenLink ? { tokenLink } : {}) }));
  return user!.id;
}

const tokenEvents = (tokenId: string): ReceivedEvent[] =>
  h.events.filter((e) => e.envelope.type === 'token.changed' && (e.envelope.data as TokenChangedV1).token.id === tokenId);

/** Commits a sign-up and waits for its event: everything committed before it has been published too. */
async function barrier(): Promise<void> {
  const { user } = await h.client.signUp(newSignUp());
  await waitFor(
    () => h.events.find((e) => e.envelope.type === 'user.registered' && (e.envelope.data as UserRegisteredV1).user.id === user!.id),
    10_000,
    'the barrier sign-up',
  );
}

describe('streamer tokens', () => {
  it('creates a token of the caller’s and publishes token.changed with it', async () => {
    const streamer = await signUp('streamer');
    const token = await runWithCorrelation('corr-token-create', () =>
      h.client.createToken({ userId: streamer, name: ' $FRESH ', pumpFunLink: LINK, description: 'A fresh coin' }),
    );
    expect(token).toMatchObject({ streamerId: streamer, name: '$FRESH', pumpFunLink: LINK, description: 'A fresh coin', isActive: 'true' });

    const [event] = await waitFor(() => (tokenEvents(token.id).length ? tokenEvents(token.id) : undefined), 10_000, 'token.changed');
    expect(event!.subject).toBe(subjectFor('token.changed', h.names.subjectPrefix));
    expect(event!.envelope.correlationId).toBe('corr-token-create');
    expect(parseEventData('token.changed', event!.envelope.data)).toEqual({
      token: expect.objectContaining({
        id: token.id,
        streamerId: streamer,
        name: '$FRESH',
        pumpFunLink: LINK,
        description: 'A fresh coin',
        isActive: 'true',
      }),
    });
    expect((await h.client.listTokens({})).tokens.map((t) => t.id)).toContain(token.id);
    expect(await h.count('SELECT count(*) FROM tokens WHERE id = $1', [token.id])).toBe(1);
  });

  it('lists all of the caller’s tokens, and ListTokens only the active ones', async () => {
    const streamer = await signUp('streamer', LINK);
    const [signUpToken] = (await h.client.listMyTokens({ userId: streamer })).tokens;
    expect(signUpToken).toMatchObject({ streamerId: streamer, pumpFunLink: LINK, isActive: 'true' });
    const second = await h.client.createToken({ userId: streamer, name: 'Second', pumpFunLink: LINK, isActive: 'false' });

    const mine = (await h.client.listMyTokens({ userId: streamer })).tokens;
    expect(mine.map((t) => [t.id, t.isActive])).toEqual([
      [second.id, 'false'],
      [signUpToken!.id, 'true'],
    ]);
    const active = (await h.client.listTokens({})).tokens;
    expect(active.every((t) => t.isActive === 'true')).toBe(true);
    expect(active.map((t) => t.id)).toContain(signUpToken!.id);
    expect(active.map((t) => t.id)).not.toContain(second.id);
  });

  it('updates the given fields of the caller’s token, each change with its token.changed; deactivated it leaves ListTokens', async () => {
    const streamer = await signUp('streamer');
    const token = await h.client.createToken({ userId: streamer, name: 'Before', pumpFunLink: LINK });
    const renamed = await h.client.updateToken({ userId: streamer, id: token.id, name: 'After', description: 'Now described' });
    expect(renamed).toMatchObject({ id: token.id, name: 'After', pumpFunLink: LINK, description: 'Now described', isActive: 'true' });
    await h.client.updateToken({ userId: streamer, id: token.id, name: 'After' }); // no change: no event
    const off = await h.client.updateToken({ userId: streamer, id: token.id, isActive: 'false', description: '' });
    expect(off).toMatchObject({ isActive: 'false', name: 'After' });
    expect(off.description).toBeUndefined();
    expect((await h.client.listTokens({})).tokens.map((t) => t.id)).not.toContain(token.id);
    expect((await h.client.getToken({ id: token.id })).isActive).toBe('false');

    await barrier();
    const published = tokenEvents(token.id).map((e) => (e.envelope.data as TokenChangedV1).token);
    expect(published.map((t) => [t.name, t.description, t.isActive])).toEqual([
      ['Before', null, 'true'],
      ['After', 'Now described', 'true'],
      ['After', null, 'false'],
    ]);
    expect(Date.parse(published[2]!.updatedAt)).toBeGreaterThan(Date.parse(published[0]!.updatedAt));
    expect(published[2]!.createdAt).toBe(published[0]!.createdAt);
  });

  it('refuses a caller who is not a streamer, someone else’s token, an unknown token and every broken rule, publishing nothing', async () => {
    const streamer = await signUp('streamer');
    const other = await signUp('streamer');
    const clipper = await signUp('clipper');
    const token = await h.client.createToken({ userId: streamer, name: 'Guarded', pumpFunLink: LINK });

    const refusals: [() => Promise<unknown>, number, string][] = [
      [
        () => h.client.createToken({ userId: clipper, name: 'Nope', pumpFunLink: LINK }),
        status.PERMISSION_DENIED,
        TOKEN_MESSAGES.streamersOnly,
      ],
      [() => h.client.updateToken({ userId: clipper, id: token.id, name: 'Nope' }), status.PERMISSION_DENIED, TOKEN_MESSAGES.streamersOnly],
      [() => h.client.listMyTokens({ userId: clipper }), status.PERMISSION_DENIED, TOKEN_MESSAGES.streamersOnly],
      [() => h.client.updateToken({ userId: other, id: token.id, name: 'Taken' }), status.PERMISSION_DENIED, TOKEN_MESSAGES.notOwner],
      [
        () => h.client.updateToken({ userId: streamer, id: '00000000-0000-4000-8000-000000000000', name: 'X' }),
        status.NOT_FOUND,
        'Token not found',
      ],
      [() => h.client.updateToken({ userId: streamer, id: 'not-a-uuid', name: 'X' }), status.NOT_FOUND, 'Token not found'],
      [() => h.client.createToken({ userId: streamer, name: '', pumpFunLink: LINK }), status.INVALID_ARGUMENT, TOKEN_MESSAGES.nameRequired],
      [
        () => h.client.createToken({ userId: streamer, name: 'x'.repeat(51), pumpFunLink: LINK }),
        status.INVALID_ARGUMENT,
        TOKEN_MESSAGES.nameLong,
      ],
      [
        () => h.client.createToken({ userId: streamer, name: 'Bad link', pumpFunLink: 'pump.fun' }),
        status.INVALID_ARGUMENT,
        TOKEN_MESSAGES.pumpFunLinkInvalid,
      ],
      [
        () => h.client.createToken({ userId: streamer, name: 'Long', pumpFunLink: LINK, description: 'd'.repeat(501) }),
        status.INVALID_ARGUMENT,
        TOKEN_MESSAGES.descriptionLong,
      ],
      [
        () => h.client.updateToken({ userId: streamer, id: token.id, isActive: 'maybe' }),
        status.INVALID_ARGUMENT,
        TOKEN_MESSAGES.isActiveInvalid,
      ],
      [
        () => h.client.updateToken({ userId: streamer, id: token.id, name: 'x'.repeat(51) }),
        status.INVALID_ARGUMENT,
        TOKEN_MESSAGES.nameLong,
      ],
    ];
    for (const [call, code, message] of refusals) {
      const e = await rejected(call());
      expect([e.code, e.message]).toEqual([code, message]);
    }

    await barrier();
    expect(tokenEvents(token.id)).toHaveLength(1);
    const byRefused = h.events.filter(
      (e) => e.envelope.type === 'token.changed' && [other, clipper].includes((e.envelope.data as TokenChangedV1).token.streamerId),
    );
    expect(byRefused).toEqual([]);
    expect((await h.client.getToken({ id: token.id })).name).toBe('Guarded');
    expect(await h.count('SELECT count(*) FROM tokens WHERE streamer_id = ANY($1::uuid[])', [[streamer, other, clipper]])).toBe(1);
  });
});

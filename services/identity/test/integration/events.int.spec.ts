import {
  eventEnvelopeSchema,
  parseEventData,
  subjectFor,
  type TokenChangedV1,
  type UserRegisteredV1,
  type UserUpdatedV1,
} from '@clipit/contracts';
import { runWithCorrelation } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newSignUp, startIdentity, type IdentityHarness, type ReceivedEvent } from '../support/identity-harness.js';

// What identity publishes: envelopes on the JetStream stream, read back by an ephemeral consumer.

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});

afterAll(async () => {
  await h?.stop();
});

function registeredFor(userId: string): Promise<ReceivedEvent> {
  return waitFor(
    () => h.events.find((e) => e.envelope.type === 'user.registered' && (e.envelope.data as UserRegisteredV1).user.id === userId),
    10_000,
    `user.registered for ${userId}`,
  );
}

function updatesFor(userId: string): ReceivedEvent[] {
  return h.events.filter((e) => e.envelope.type === 'user.updated' && (e.envelope.data as UserUpdatedV1).user.id === userId);
}

/** Commits a sign-up and waits for its event: everything committed before it has been published too. */
async function barrier(): Promise<void> {
  const { user } = await h.client.signUp(newSignUp());
  await registeredFor(user!.id);
}

describe('events', () => {
  it('publishes user.registered on <prefix>.identity.user.registered.v1 with the caller’s correlation id', async () => {
    const correlationId = `corr-signup-${Date.now()}`;
    const req = newSignUp({ role: 'streamer', displayName: 'Event Person' });
    const { user } = await runWithCorrelation(correlationId, () => h.client.signUp(req));

    const received = await registeredFor(user!.id);
    expect(received.subject).toBe(`${h.names.subjectPrefix}.identity.user.registered.v1`);
    expect(received.subject).toBe(subjectFor('user.registered', h.names.subjectPrefix));
    const envelope = eventEnvelopeSchema.parse(received.envelope);
    expect(envelope).toMatchObject({ type: 'user.registered', source: 'identity', correlationId });
    expect(received.msgId).toBe(envelope.id);
    expect(Date.now() - Date.parse(envelope.occurredAt)).toBeLessThan(60_000);

    const data = parseEventData('user.registered', envelope.data);
    expect(data).toEqual({
      claimedPlaceholderId: null,
      user: expect.objectContaining({
        id: user!.id,
        twitterUsername: req.twitterHandle,
        displayName: 'Event Person',
        walletAddress: req.walletAddress,
        role: 'streamer',
        isPlaceholder: 'false',
        streamerMultiplier: '1.00',
        createdAt: user!.createdAt,
      }),
    });
    // Private data stays home.
    expect(JSON.stringify(envelope)).not.toContain(req.email);
    expect(JSON.stringify(envelope)).not.toContain('scrypt');
  });

  it('publishes user.registered for a placeholder, then user.registered and user.updated when it is claimed', async () => {
    const placeholder = await h.client.createPlaceholderStreamer({
      displayName: 'Evented Ph',
      twitterUsername: 'evented_ph',
      streamerMultiplier: '1.10',
    });
    const created = await registeredFor(placeholder.id);
    expect(created.envelope.data).toMatchObject({ user: { isPlaceholder: 'true', streamerMultiplier: '1.10', claimedBy: null } });
    expect(JSON.stringify(created.envelope)).not.toContain(placeholder.claimCode);

    const correlationId = `corr-claim-${Date.now()}`;
    const { user } = await runWithCorrelation(correlationId, () =>
      h.client.signUp(newSignUp({ role: 'streamer', claimCode: placeholder.claimCode })),
    );
    const registered = await registeredFor(user!.id);
    expect(registered.envelope.data).toMatchObject({ claimedPlaceholderId: placeholder.id, user: { streamerMultiplier: '1.10' } });
    const [claimed] = await waitFor(
      () => (updatesFor(placeholder.id).length ? updatesFor(placeholder.id) : undefined),
      10_000,
      'placeholder update',
    );
    expect(claimed!.subject).toBe(`${h.names.subjectPrefix}.identity.user.updated.v1`);
    expect(claimed!.envelope).toMatchObject({
      correlationId,
      data: { changed: ['claimedBy', 'claimedAt'], user: { id: placeholder.id, claimedBy: user!.id } },
    });
    // Both events of one sign-up are in the order they were written.
    expect(h.events.indexOf(registered)).toBeLessThan(h.events.indexOf(claimed!));
  });

  it('publishes user.updated naming the changed fields, and nothing for a change that changes nothing', async () => {
    const { user } = await h.client.signUp(newSignUp({ role: 'streamer' }));
    await registeredFor(user!.id);
    const other = 'So11111111111111111111111111111111111111112';
    await runWithCorrelation('corr-wallet', () =>
      h.client.updateWallet({ userId: user!.id, walletAddress: other, currentPassword: 'password123' }),
    );
    await h.client.updateWallet({ userId: user!.id, walletAddress: other }); // same again: no event
    await h.client.updateProfile({ userId: user!.id, displayName: 'Renamed' });
    await barrier();

    expect(
      updatesFor(user!.id).map((e) => [e.envelope.correlationId === 'corr-wallet', (e.envelope.data as UserUpdatedV1).changed]),
    ).toEqual([
      [true, ['walletAddress']],
      [false, ['displayName']],
    ]);
    const last = updatesFor(user!.id).at(-1)!.envelope.data as UserUpdatedV1;
    expect(last.user).toMatchObject({ walletAddress: other, displayName: 'Renamed', nextStreamTime: null });
  });

  it('publishes token.changed with the new token when a streamer signs up with a token link, and none without one', async () => {
    const { user } = await h.client.signUp(
      newSignUp({ role: 'streamer', displayName: 'Token Person', tokenLink: 'https://pump.fun/coin/abc123' }),
    );
    const { user: plain } = await h.client.signUp(newSignUp({ role: 'streamer' }));
    await registeredFor(user!.id);
    await barrier();
    const tokens = h.events.filter((e) => e.envelope.type === 'token.changed');
    const mine = tokens.filter((e) => (e.envelope.data as TokenChangedV1).token.streamerId === user!.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.subject).toBe(subjectFor('token.changed', h.names.subjectPrefix));
    const { tokens: listed } = await h.client.listTokens({});
    const token = listed.find((t) => t.streamerId === user!.id)!;
    expect(parseEventData('token.changed', mine[0]!.envelope.data)).toEqual({
      token: expect.objectContaining({
        id: token.id,
        streamerId: user!.id,
        name: 'Token Person',
        pumpFunLink: 'https://pump.fun/coin/abc123',
        isActive: 'true',
      }),
    });
    expect(tokens.filter((e) => (e.envelope.data as TokenChangedV1).token.streamerId === plain!.id)).toEqual([]);
  });

  it('publishes nothing for a rejected sign-up', async () => {
    const taken = newSignUp();
    await h.client.signUp(taken);
    const rejectedHandle = newSignUp().twitterHandle;
    const attempts = [
      newSignUp({ twitterHandle: rejectedHandle, password: 'short' }),
      newSignUp({ twitterHandle: rejectedHandle, email: taken.email }),
      newSignUp({ twitterHandle: rejectedHandle, role: 'streamer', claimCode: 'CLAIM-ZZZZ9999' }),
    ];
    for (const req of attempts) await expect(h.client.signUp(req)).rejects.toMatchObject({ name: 'GrpcCallError' });
    await barrier();
    const mentions = h.events.filter((e) => JSON.stringify(e.envelope).includes(rejectedHandle));
    expect(mentions).toEqual([]);
    expect(await h.count(`SELECT count(*) FROM outbox WHERE envelope::text LIKE '%' || $1 || '%'`, [rejectedHandle])).toBe(0);
  });

  it('marks every outbox row published', async () => {
    await barrier();
    await waitFor(
      async () => ((await h.count('SELECT count(*) FROM outbox WHERE published_at IS NULL')) === 0 ? true : undefined),
      10_000,
      'an empty outbox',
    );
    expect(await h.count('SELECT count(*) FROM outbox')).toBe(h.events.length);
  });
});

describe('health and metrics', () => {
  it('answers liveness, readiness over Postgres and NATS, and Prometheus metrics', async () => {
    const live = await fetch(`${h.httpUrl}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${h.httpUrl}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { postgres: 'ok', nats: 'ok' } }]);
    const metrics = await (await fetch(`${h.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*method="signUp"[^}]*code="OK"[^}]*\} \d+/);
    expect(metrics).toMatch(/grpc_server_handled_total\{[^}]*method="signUp"[^}]*code="INVALID_ARGUMENT"/);
    expect(metrics).toMatch(/events_published_total\{[^}]*type="user.registered"/);
  });
});

import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { DomainError, LOGGER, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { newXAccount } from '../domain/user.factory.js';
import type { UserEntity } from '../entities/user.entity.js';
import { UserRepository } from '../repositories/user.repository.js';
import { SessionService } from './session.service.js';
import { XSignInService } from './x-sign-in.service.js';

// What a sign-in with X writes and publishes, with every repository auto-mocked.

const tx = { marker: 'tx' } as unknown as EntityManager;
const X_ID = '1470000000000000001';
const request = (patch: Partial<identityV1.SignInWithXRequest> = {}): identityV1.SignInWithXRequest => ({
  xUserId: X_ID,
  xUsername: 'alice_x',
  name: 'Alice',
  profileImageUrl: 'https://pbs.twimg.com/a.jpg',
  client: { ip: '127.0.0.1' },
  ...patch,
});
const passwordAccount = (patch: Partial<UserEntity> = {}): UserEntity => ({
  ...newXAccount(
    { xUserId: X_ID, xUsername: 'Alice_X', name: null, profileImageUrl: null },
    new Date('2026-01-01T00:00:00.000Z'),
    '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11',
  ),
  xUserId: null,
  xLinkedAt: null,
  emailVerifiedAt: null,
  walletChangedAt: null,
  email: 'alice@example.com',
  passwordHash: 'scrypt$hash',
  walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  ...patch,
});

async function refused(call: Promise<unknown>, code: status, message: string): Promise<void> {
  const error = await rejectedWith(call, DomainError);
  expect({ code: error.code, message: error.message }).toEqual({ code, message });
}

function setup() {
  const { service, mock } = createTestService(XSignInService, { [LOGGER]: pino({ level: 'silent' }) });
  const users = mock(UserRepository);
  users.findByXUserIdForUpdate.mockResolvedValue(null);
  users.findAccountByHandle.mockResolvedValue(null);
  users.insert.mockResolvedValue(undefined);
  users.update.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const sessions = mock(SessionService);
  sessions.create.mockResolvedValue({ sid: 'sid', expiresAt: '2026-12-01T00:00:00.000Z' });
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  return { service, users, outbox, sessions, transactions };
}

describe('XSignInService', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('creates a password-less clipper, publishes user.registered then user.x-linked, and starts a session', async () => {
    const result = await f.service.signIn(request());
    const inserted = f.users.insert.mock.calls[0]![1];
    expect(inserted).toMatchObject({ twitterUsername: 'alice_x', role: 'clipper', passwordHash: null, email: null, xUserId: X_ID });
    expect(f.outbox.append.mock.calls.map(([, type, data]) => [type, data])).toEqual([
      [
        'user.registered',
        { user: expect.objectContaining({ id: inserted.id, twitterUsername: 'alice_x', walletAddress: null }), claimedPlaceholderId: null },
      ],
      ['user.x-linked', { userId: inserted.id, xUserId: X_ID, xUsername: 'alice_x', linkedAt: inserted.xLinkedAt!.toISOString() }],
    ]);
    expect(f.sessions.create).toHaveBeenCalledWith(tx, inserted.id, { ip: '127.0.0.1' }, 'x', inserted.createdAt);
    expect(result).toMatchObject({
      created: true,
      linked: true,
      session: { sid: 'sid' },
      user: { id: inserted.id, twitterUsername: 'alice_x' },
    });
  });

  it('links the account with the X handle: sets the X id, publishes only user.x-linked', async () => {
    f.users.findAccountByHandle.mockResolvedValue(passwordAccount());
    const result = await f.service.signIn(request());
    expect(f.users.insert).not.toHaveBeenCalled();
    const [, id, patch] = f.users.update.mock.calls[0]!;
    expect([id, patch]).toEqual([passwordAccount().id, { xUserId: X_ID, xLinkedAt: expect.any(Date), updatedAt: expect.any(Date) }]);
    expect(f.outbox.append.mock.calls.map(([, type]) => type)).toEqual(['user.x-linked']);
    expect(result).toMatchObject({ created: false, linked: true, user: { twitterUsername: 'Alice_X', email: 'alice@example.com' } });
  });

  it('signs in an account already linked without writing or publishing anything but the session', async () => {
    f.users.findByXUserIdForUpdate.mockResolvedValue(passwordAccount({ xUserId: X_ID }));
    const result = await f.service.signIn(request());
    expect(f.users.update).not.toHaveBeenCalled();
    expect(f.users.findAccountByHandle).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
    expect(result).toMatchObject({ created: false, linked: false });
  });

  it('links the signed-in account named by linkUserId, not the account with the handle', async () => {
    const me = passwordAccount({ id: '5d1f0c1e-0000-4000-8000-00000000000a', twitterUsername: 'someone_else' });
    f.users.getByIdForUpdate.mockResolvedValue(me);
    await f.service.signIn(request({ linkUserId: me.id }));
    expect(f.users.findAccountByHandle).not.toHaveBeenCalled();
    expect(f.users.update.mock.calls[0]![1]).toBe(me.id);
  });

  it('refuses and writes nothing when the X account belongs to another account', async () => {
    f.users.getByIdForUpdate.mockResolvedValue(passwordAccount({ id: '5d1f0c1e-0000-4000-8000-00000000000a' }));
    f.users.findByXUserIdForUpdate.mockResolvedValue(passwordAccount({ xUserId: X_ID }));
    await refused(
      f.service.signIn(request({ linkUserId: '5d1f0c1e-0000-4000-8000-00000000000a' })),
      status.ALREADY_EXISTS,
      'This X account is already linked to another CLIP IT account',
    );
    expect(f.users.update).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
    expect(f.sessions.create).not.toHaveBeenCalled();
  });

  it('answers NOT_FOUND for a linkUserId that is not an account, before any transaction', async () => {
    await refused(f.service.signIn(request({ linkUserId: 'nope' })), status.NOT_FOUND, 'User not found');
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('tries once more when a concurrent sign-in of the same X user won the race, and signs into what it made', async () => {
    const race = Object.assign(new QueryFailedError('INSERT', [], new Error('duplicate key')), {
      driverError: { code: '23505', constraint: 'users_x_user_id_key' },
    });
    f.users.insert.mockRejectedValueOnce(race);
    f.users.findByXUserIdForUpdate.mockResolvedValueOnce(null).mockResolvedValueOnce(passwordAccount({ xUserId: X_ID }));
    const result = await f.service.signIn(request());
    expect(f.transactions.run).toHaveBeenCalledTimes(2);
    expect(result).toMatchObject({ created: false, linked: false });
  });
});

import { status } from '@grpc/grpc-js';
import { CONFIG, DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import type { EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { hashPassword } from '../domain/password.js';
import { newAccount } from '../domain/user.factory.js';
import type { UserEntity } from '../entities/user.entity.js';
import { UserRepository } from '../repositories/user.repository.js';
import { MailService } from './mail.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { SessionService } from './session.service.js';
import { UserService } from './user.service.js';

const ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const OTHER = 'So11111111111111111111111111111111111111112';
const PASSWORD = 'correct horse';
const tx = {} as EntityManager;
let passwordHash = '';

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
});

function stored(patch: Partial<UserEntity> = {}): UserEntity {
  const built = newAccount(
    {
      email: 'a@example.com',
      passwordHash,
      handle: 'alice',
      walletAddress: WALLET,
      role: 'clipper',
      displayName: 'Alice',
      pictureUrl: null,
    },
    null,
    new Date('2026-11-01T00:00:00.000Z'),
    ID,
  );
  return { ...built, ...patch };
}

function setup(user: UserEntity | null, locked: UserEntity | null = user) {
  const { service, mock } = createTestService(UserService, {
    [CONFIG]: { MEDIA_PUBLIC_BASE_URL: '/media', PUBLIC_SITE_URL: 'https://clipit.example' },
  });
  const users = mock(UserRepository);
  users.getById.mockResolvedValue(user);
  users.getByIdForUpdate.mockResolvedValue(locked);
  users.update.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const sessions = mock(SessionService);
  sessions.isRecentXSignIn.mockResolvedValue(false);
  const mail = mock(MailService);
  mail.queue.mockResolvedValue(undefined);
  runTransactionsWith(mock(TransactionRunner), tx);
  // The wallet's password check through the real line (scrypt at the stored hash's cost).
  const hashing = { PASSWORD_HASH_COST: 10, PASSWORD_HASH_CONCURRENCY: 1, PASSWORD_HASH_BUDGET_MS: 2500 } as IdentityConfig;
  const real = new PasswordHasher(hashing, pino({ level: 'silent' }));
  mock(PasswordHasher).verify.mockImplementation((operation, password, hash) => real.verify(operation, password, hash));
  return { service, users, outbox, sessions, mail };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);

describe('UserService updates', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup(stored());
  });

  it('writes nothing and emits nothing when no field changes', async () => {
    const user = await f.service.updateProfile({ userId: ID, displayName: ' Alice ' });
    expect(user.displayName).toBe('Alice');
    await f.service.updateWallet({ userId: ID, walletAddress: WALLET });
    expect(f.users.update).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('writes only the changed field and names it in one user.updated event', async () => {
    const user = await f.service.updateProfile({ userId: ID, displayName: 'Alicia' });
    expect(user.displayName).toBe('Alicia');
    const [, , values] = f.users.update.mock.calls[0]!;
    expect(Object.keys(values).sort()).toEqual(['displayName', 'updatedAt']);
    const [, type, data] = f.outbox.append.mock.calls[0]!;
    expect(type).toBe('user.updated');
    expect(data).toMatchObject({ changed: ['displayName'], user: { id: ID, displayName: 'Alicia' } });
  });

  it('replaces the wallet given the current password: stamped, with its own event, and mailed to the owner', async () => {
    const user = await f.service.updateWallet({ userId: ID, walletAddress: ` ${OTHER} `, currentPassword: PASSWORD });
    expect(user.walletAddress).toBe(OTHER);
    const [, , values] = f.users.update.mock.calls[0]!;
    expect(values).toEqual({ walletAddress: OTHER, walletChangedAt: expect.any(Date), updatedAt: values.walletChangedAt });
    expect(user.walletChangedAt).toBe(values.walletChangedAt!.toISOString());
    expect(f.outbox.append.mock.calls[0]![2]).toMatchObject({
      changed: ['walletAddress'],
      user: { walletAddress: OTHER, walletChangedAt: user.walletChangedAt },
    });
    const [, mail] = f.mail.queue.mock.calls[0]!;
    expect(mail).toMatchObject({ kind: 'wallet-changed', to: 'a@example.com', subject: 'Your CLIP IT payout wallet was changed' });
    expect(mail.text).toContain('https://clipit.example/login');
  });

  it('refuses to replace a wallet without the password, or with a wrong one, changing nothing', async () => {
    for (const [currentPassword, message] of [
      [undefined, 'Enter your current password to change your wallet address'],
      ['', 'Enter your current password to change your wallet address'],
      ['wrong one', 'Current password is incorrect'],
    ] as const) {
      const refused = await failure(f.service.updateWallet({ userId: ID, walletAddress: OTHER, currentPassword }));
      expect([refused.code, refused.message]).toEqual([status.PERMISSION_DENIED, message]);
    }
    expect(f.users.update).not.toHaveBeenCalled();
    expect(f.mail.queue).not.toHaveBeenCalled();
  });

  it('takes a recent sign-in with X on the calling session instead of a password', async () => {
    f = setup(stored({ passwordHash: null }));
    const refused = await failure(f.service.updateWallet({ userId: ID, walletAddress: OTHER, sid: 'stale' }));
    expect([refused.code, refused.message]).toEqual([
      status.PERMISSION_DENIED,
      'Sign in with X again to change your wallet address: a change needs a sign-in from the last 10 minutes',
    ]);
    f.sessions.isRecentXSignIn.mockResolvedValue(true);
    expect((await f.service.updateWallet({ userId: ID, walletAddress: OTHER, sid: 'fresh' })).walletAddress).toBe(OTHER);
    expect(f.sessions.isRecentXSignIn).toHaveBeenLastCalledWith(ID, 'fresh');
  });

  it('sets a first wallet without more, unstamped and unmailed; a wallet that appeared meanwhile needs the proof', async () => {
    f = setup(stored({ walletAddress: null }));
    const user = await f.service.updateWallet({ userId: ID, walletAddress: OTHER });
    expect([user.walletAddress, user.walletChangedAt]).toEqual([OTHER, undefined]);
    expect(f.mail.queue).not.toHaveBeenCalled();

    f = setup(stored({ walletAddress: null }), stored());
    const refused = await failure(f.service.updateWallet({ userId: ID, walletAddress: OTHER }));
    expect(refused.code).toBe(status.PERMISSION_DENIED);
    expect(f.users.update).not.toHaveBeenCalled();
  });

  it('checks the wallet with the connect page messages', async () => {
    expect((await failure(f.service.updateWallet({ userId: ID, walletAddress: '' }))).message).toBe('Wallet address is required');
    expect((await failure(f.service.updateWallet({ userId: ID, walletAddress: 'abc' }))).message).toBe(
      'Please enter a valid Solana wallet address',
    );
  });

  it('answers NOT_FOUND for an unknown or malformed user id', async () => {
    f = setup(null);
    const missing = await failure(f.service.updateWallet({ userId: ID, walletAddress: WALLET }));
    expect([missing.code, missing.message]).toEqual([status.NOT_FOUND, 'User not found']);
    expect((await failure(f.service.updateWallet({ userId: 'not-a-uuid', walletAddress: WALLET }))).code).toBe(status.NOT_FOUND);
    expect(f.users.getById).toHaveBeenCalledTimes(1);
  });
});

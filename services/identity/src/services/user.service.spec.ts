import { status } from '@grpc/grpc-js';
import { CONFIG, DomainError, Outbox } from '@clipit/service-kit';
import { createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { newAccount } from '../domain/user.factory.js';
import type { UserEntity } from '../entities/user.entity.js';
import { DatabaseRepository } from '../repositories/database.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { UserService } from './user.service.js';

const ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const tx = {} as EntityManager;

function stored(patch: Partial<UserEntity> = {}): UserEntity {
  const built = newAccount(
    { email: 'a@example.com', passwordHash: 'scrypt$...', handle: 'alice', walletAddress: WALLET, role: 'clipper', displayName: 'Alice', pictureUrl: null },
    null,
    new Date('2026-11-01T00:00:00.000Z'),
    ID,
  );
  return { ...built, ...patch };
}

function setup(user: UserEntity | null) {
  const { service, mock } = createTestService(UserService, { [CONFIG]: { MEDIA_PUBLIC_BASE_URL: '/media' } });
  const users = mock(UserRepository);
  users.getByIdForUpdate.mockResolvedValue(user);
  users.update.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  mock(DatabaseRepository).transaction.mockImplementation((work) => work(tx));
  return { service, users, outbox };
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

  it('changes the wallet with its own event', async () => {
    const other = 'So11111111111111111111111111111111111111112';
    const user = await f.service.updateWallet({ userId: ID, walletAddress: ` ${other} ` });
    expect(user.walletAddress).toBe(other);
    expect(f.outbox.append.mock.calls[0]![2]).toMatchObject({ changed: ['walletAddress'], user: { walletAddress: other } });
  });

  it('checks the wallet with the connect page messages', async () => {
    expect((await failure(f.service.updateWallet({ userId: ID, walletAddress: '' }))).message).toBe('Wallet address is required');
    expect((await failure(f.service.updateWallet({ userId: ID, walletAddress: 'abc' }))).message).toBe('Please enter a valid Solana wallet address');
  });

  it('answers NOT_FOUND for an unknown or malformed user id', async () => {
    f = setup(null);
    const missing = await failure(f.service.updateWallet({ userId: ID, walletAddress: WALLET }));
    expect([missing.code, missing.message]).toEqual([status.NOT_FOUND, 'User not found']);
    expect((await failure(f.service.updateWallet({ userId: 'not-a-uuid', walletAddress: WALLET }))).code).toBe(status.NOT_FOUND);
    expect(f.users.getByIdForUpdate).toHaveBeenCalledTimes(1);
  });
});

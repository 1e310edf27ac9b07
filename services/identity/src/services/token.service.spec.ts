import { status } from '@grpc/grpc-js';
import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { newAccount } from '../domain/user.factory.js';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity, UserRole } from '../entities/user.entity.js';
import { TokenRepository } from '../repositories/token.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { TOKEN_NOT_FOUND, TokenService } from './token.service.js';

const STREAMER = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const OTHER = '5d1f6a0e-2c3b-4d4e-8f5a-6b7c8d9e0f12';
const TOKEN_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const LINK = 'https://pump.fun/coin/abc';
const tx = {} as EntityManager;

function account(role: UserRole, id = STREAMER): UserEntity {
  return newAccount(
    {
      email: 'a@example.com',
      passwordHash: 'scrypt$...',
      handle: 'alice',
      walletAddress: 'W',
      role,
      displayName: 'Alice',
      pictureUrl: null,
    },
    null,
    new Date('2026-11-01T00:00:00.000Z'),
    id,
  );
}

function storedToken(patch: Partial<TokenEntity> = {}): TokenEntity {
  const at = new Date('2026-11-01T00:00:00.000Z');
  return {
    id: TOKEN_ID,
    streamerId: STREAMER,
    name: '$ALICE',
    pumpFunLink: LINK,
    description: null,
    isActive: 'true',
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

function setup(caller: UserEntity | null = account('streamer'), token: TokenEntity | null = storedToken()) {
  const { service, mock } = createTestService(TokenService);
  const users = mock(UserRepository);
  users.getById.mockResolvedValue(caller);
  const tokens = mock(TokenRepository);
  tokens.findByIdForUpdate.mockResolvedValue(token ?? undefined);
  tokens.insert.mockResolvedValue(undefined);
  tokens.update.mockResolvedValue(undefined);
  tokens.listByStreamer.mockResolvedValue(token ? [token] : []);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  runTransactionsWith(mock(TransactionRunner), tx);
  return { service, users, tokens, outbox };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);
const codeAndMessage = async (promise: Promise<unknown>) => {
  const e = await failure(promise);
  return [e.code, e.message];
};

describe('TokenService.createToken', () => {
  it('stores the checked token and publishes token.changed with it, in one transaction', async () => {
    const f = setup();
    const token = await f.service.createToken({ userId: STREAMER, name: ' $NEW ', pumpFunLink: ` ${LINK} `, description: '  ' });
    expect(token).toMatchObject({ streamerId: STREAMER, name: '$NEW', pumpFunLink: LINK, isActive: 'true' });
    expect(token.description).toBeUndefined();
    const [insertTx, row] = f.tokens.insert.mock.calls[0]!;
    expect(insertTx).toBe(tx);
    expect(row).toMatchObject({ id: token.id, name: '$NEW', description: null, isActive: 'true' });
    const [appendTx, type, data] = f.outbox.append.mock.calls[0]!;
    expect([appendTx, type]).toEqual([tx, 'token.changed']);
    expect(data).toMatchObject({
      token: { id: token.id, streamerId: STREAMER, name: '$NEW', pumpFunLink: LINK, description: null, isActive: 'true' },
    });
  });

  it('takes isActive false', async () => {
    const f = setup();
    expect((await f.service.createToken({ userId: STREAMER, name: 'T', pumpFunLink: LINK, isActive: 'false' })).isActive).toBe('false');
  });

  it('refuses anyone but a streamer', async () => {
    for (const role of ['clipper', 'user', 'admin'] as const) {
      const f = setup(account(role));
      expect(await codeAndMessage(f.service.createToken({ userId: STREAMER, name: 'T', pumpFunLink: LINK }))).toEqual([
        status.PERMISSION_DENIED,
        TOKEN_MESSAGES.streamersOnly,
      ]);
      expect(f.tokens.insert).not.toHaveBeenCalled();
    }
  });

  it('answers NOT_FOUND for an unknown or malformed caller', async () => {
    const f = setup(null);
    expect(await codeAndMessage(f.service.createToken({ userId: STREAMER, name: 'T', pumpFunLink: LINK }))).toEqual([
      status.NOT_FOUND,
      'User not found',
    ]);
    expect((await failure(f.service.createToken({ userId: 'nope', name: 'T', pumpFunLink: LINK }))).code).toBe(status.NOT_FOUND);
    expect(f.users.getById).toHaveBeenCalledTimes(1);
  });

  it('refuses each broken rule with its message and writes nothing', async () => {
    const f = setup();
    const cases: [Partial<{ name: string; pumpFunLink: string; description: string; isActive: string }>, string][] = [
      [{ name: '' }, TOKEN_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(51) }, TOKEN_MESSAGES.nameLong],
      [{ pumpFunLink: 'not a link' }, TOKEN_MESSAGES.pumpFunLinkInvalid],
      [{ pumpFunLink: '' }, TOKEN_MESSAGES.pumpFunLinkInvalid],
      [{ description: 'd'.repeat(501) }, TOKEN_MESSAGES.descriptionLong],
      [{ isActive: 'yes' }, TOKEN_MESSAGES.isActiveInvalid],
    ];
    for (const [patch, message] of cases) {
      expect(await codeAndMessage(f.service.createToken({ userId: STREAMER, name: 'T', pumpFunLink: LINK, ...patch }))).toEqual([
        status.INVALID_ARGUMENT,
        message,
      ]);
    }
    expect(f.tokens.insert).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });
});

describe('TokenService.updateToken', () => {
  it('changes only the fields given and names the whole new token in token.changed', async () => {
    const f = setup();
    const token = await f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, isActive: 'false', description: 'About it' });
    expect(token).toMatchObject({ id: TOKEN_ID, name: '$ALICE', pumpFunLink: LINK, description: 'About it', isActive: 'false' });
    const [updateTx, id, values] = f.tokens.update.mock.calls[0]!;
    expect([updateTx, id]).toEqual([tx, TOKEN_ID]);
    expect(Object.keys(values).sort()).toEqual(['description', 'isActive', 'updatedAt']);
    const [, type, data] = f.outbox.append.mock.calls[0]!;
    expect(type).toBe('token.changed');
    expect(data).toMatchObject({
      token: { id: TOKEN_ID, isActive: 'false', description: 'About it', createdAt: '2026-11-01T00:00:00.000Z' },
    });
    expect((data as { token: { updatedAt: string } }).token.updatedAt).not.toBe('2026-11-01T00:00:00.000Z');
  });

  it('clears the description with an empty one', async () => {
    const f = setup(account('streamer'), storedToken({ description: 'old' }));
    const token = await f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, description: '' });
    expect(token.description).toBeUndefined();
    expect(f.tokens.update.mock.calls[0]![2]).toMatchObject({ description: null });
  });

  it('writes and publishes nothing when nothing changes', async () => {
    const f = setup();
    const token = await f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, name: ' $ALICE ', isActive: 'true' });
    expect(token.name).toBe('$ALICE');
    expect(f.tokens.update).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses a token of someone else, an unknown token, a non-streamer and a broken rule', async () => {
    let f = setup(account('streamer', OTHER));
    expect(await codeAndMessage(f.service.updateToken({ userId: OTHER, id: TOKEN_ID, name: 'Mine now' }))).toEqual([
      status.PERMISSION_DENIED,
      TOKEN_MESSAGES.notOwner,
    ]);
    f = setup(account('streamer'), null);
    expect(await codeAndMessage(f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, name: 'X' }))).toEqual([
      status.NOT_FOUND,
      TOKEN_NOT_FOUND,
    ]);
    f = setup(account('clipper'));
    expect(await codeAndMessage(f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, name: 'X' }))).toEqual([
      status.PERMISSION_DENIED,
      TOKEN_MESSAGES.streamersOnly,
    ]);
    expect(f.tokens.findByIdForUpdate).not.toHaveBeenCalled();
    f = setup();
    expect(await codeAndMessage(f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, name: '   ' }))).toEqual([
      status.INVALID_ARGUMENT,
      TOKEN_MESSAGES.nameRequired,
    ]);
    expect(await codeAndMessage(f.service.updateToken({ userId: STREAMER, id: TOKEN_ID, pumpFunLink: 'ftp://x' }))).toEqual([
      status.INVALID_ARGUMENT,
      TOKEN_MESSAGES.pumpFunLinkInvalid,
    ]);
    expect(f.tokens.update).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });
});

describe('TokenService.listMyTokens', () => {
  it("answers the streamer's own tokens, active or not", async () => {
    const f = setup(account('streamer'), storedToken({ isActive: 'false' }));
    expect((await f.service.listMyTokens({ userId: STREAMER })).tokens).toEqual([
      expect.objectContaining({ id: TOKEN_ID, isActive: 'false' }),
    ]);
    expect(f.tokens.listByStreamer).toHaveBeenCalledWith(STREAMER);
  });

  it('refuses anyone but a streamer', async () => {
    const f = setup(account('clipper'));
    expect(await codeAndMessage(f.service.listMyTokens({ userId: STREAMER }))).toEqual([
      status.PERMISSION_DENIED,
      TOKEN_MESSAGES.streamersOnly,
    ]);
  });
});

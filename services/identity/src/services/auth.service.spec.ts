import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { busy, CONFIG, DomainError, LOGGER, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { beforeEach, describe, expect, it, type jest } from '@jest/globals';
import pino from 'pino';
import { QueryFailedError, type EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { newPlaceholder } from '../domain/user.factory.js';
import type { UserEntity } from '../entities/user.entity.js';
import { EmailLinkRepository } from '../repositories/email-link.repository.js';
import { StorageRepository } from '../repositories/storage.repository.js';
import { TokenRepository } from '../repositories/token.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { AuthService } from './auth.service.js';
import { EmailVerificationService } from './email-verification.service.js';
import { MailService } from './mail.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { SessionService } from './session.service.js';

// The ordering rules of sign-up, with every repository auto-mocked: what runs before the
// transaction, what the transaction writes, and what is cleaned up when it fails.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const tx = { marker: 'tx' } as unknown as EntityManager;

function placeholder(patch: Partial<UserEntity> = {}): UserEntity {
  const built = newPlaceholder(
    {
      twitterUsername: 'bigstreamer',
      displayName: 'Big Streamer',
      profileImageUrl: 'https://img.example/p.png',
      bannerImageUrl: 'https://img.example/b.png',
      streamerMultiplier: '1.75',
    },
    'CLAIM-ABCD2345',
    new Date('2026-10-01T00:00:00.000Z'),
    '3f0e8a52-6c7d-4f7e-9a1b-2c3d4e5f6a7b',
  );
  return { ...built, ...patch };
}

/** The mocked hasher doing the real work: scrypt at the config's cost, through the real line. */
function hashForReal(hasher: jest.Mocked<PasswordHasher>, config: Partial<IdentityConfig>) {
  const real = new PasswordHasher(
    { PASSWORD_HASH_CONCURRENCY: 2, PASSWORD_HASH_BUDGET_MS: 2500, ...config } as IdentityConfig,
    pino({ level: 'silent' }),
  );
  hasher.assertRoom.mockImplementation((operation) => real.assertRoom(operation));
  hasher.hash.mockImplementation((operation, password) => real.hash(operation, password));
  hasher.verify.mockImplementation((operation, password, stored) => real.verify(operation, password, stored));
  hasher.verifyUnknown.mockImplementation((operation, password) => real.verifyUnknown(operation, password));
  hasher.rehashIfDue.mockImplementation((password, stored) => real.rehashIfDue(password, stored));
  return hasher;
}

function setup() {
  const config = { MEDIA_PUBLIC_BASE_URL: '/media', PASSWORD_HASH_COST: 15 };
  const { service, mock } = createTestService(AuthService, { [CONFIG]: config, [LOGGER]: pino({ level: 'silent' }) });
  const hasher = hashForReal(mock(PasswordHasher), config);
  const users = mock(UserRepository);
  users.accountHandleExists.mockResolvedValue(false);
  users.emailExists.mockResolvedValue(false);
  users.findPlaceholderByClaimCode.mockResolvedValue(null);
  users.insert.mockResolvedValue(undefined);
  users.update.mockResolvedValue(undefined);
  const tokens = mock(TokenRepository);
  tokens.insert.mockResolvedValue(undefined);
  const storage = mock(StorageRepository);
  storage.put.mockResolvedValue(undefined);
  storage.delete.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const sessions = mock(SessionService);
  sessions.create.mockResolvedValue({ sid: 'sid', expiresAt: '2026-12-01T00:00:00.000Z' });
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const verification = mock(EmailVerificationService);
  verification.queueLink.mockResolvedValue(undefined);
  return { service, users, tokens, storage, outbox, sessions, transactions, verification, hasher };
}

const request = (patch: Partial<identityV1.SignUpRequest> = {}): identityV1.SignUpRequest => ({
  email: 'streamer@example.com',
  twitterHandle: '@Streamer_1',
  walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  role: 'streamer',
  password: 'long enough',
  client: { ip: '203.0.113.9', userAgent: 'jest' },
  ...patch,
});

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);

const uniqueViolation = (constraint: string) =>
  new QueryFailedError('INSERT INTO users ...', [], Object.assign(new Error('duplicate key'), { code: '23505', constraint }));

describe('AuthService.signUp', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('rejects bad input before any read or write', async () => {
    const err = await failure(f.service.signUp(request({ email: 'nope', profilePicture: PNG })));
    expect(err.message).toBe('Please enter a valid email address');
    expect(f.users.accountHandleExists).not.toHaveBeenCalled();
    expect(f.storage.put).not.toHaveBeenCalled();
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('refuses at once when the hashing line is full (ADR 0044): nothing read, hashed, stored or written', async () => {
    f.hasher.assertRoom.mockImplementationOnce(() => {
      throw busy('Too many sign-ups right now; please try again in 4 seconds', 4);
    });
    const err = await failure(f.service.signUp(request({ profilePicture: PNG })));
    expect([err.code, err.message, err.retryAfterSeconds]).toEqual([
      status.UNAVAILABLE,
      'Too many sign-ups right now; please try again in 4 seconds',
      4,
    ]);
    expect(f.hasher.assertRoom).toHaveBeenCalledWith('sign-up');
    expect(f.users.accountHandleExists).not.toHaveBeenCalled();
    expect(f.hasher.hash).not.toHaveBeenCalled();
    expect(f.storage.put).not.toHaveBeenCalled();
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('answers a taken handle or email before storing the picture', async () => {
    f.users.accountHandleExists.mockResolvedValueOnce(true);
    const handle = await failure(f.service.signUp(request({ profilePicture: PNG })));
    expect([handle.code, handle.message]).toEqual([status.ALREADY_EXISTS, 'That Twitter handle is already registered']);
    f.users.emailExists.mockResolvedValueOnce(true);
    const email = await failure(f.service.signUp(request({ profilePicture: PNG })));
    expect([email.code, email.message]).toEqual([status.ALREADY_EXISTS, 'An account with this email already exists']);
    expect(f.storage.put).not.toHaveBeenCalled();
  });

  it('answers unknown and used claim codes before storing anything', async () => {
    expect((await failure(f.service.signUp(request({ claimCode: 'CLAIM-ZZZZ2222' })))).message).toBe('Invalid claim code');
    f.users.findPlaceholderByClaimCode.mockResolvedValueOnce(placeholder({ claimedBy: 'someone' }));
    expect((await failure(f.service.signUp(request({ claimCode: 'claim-abcd2345' })))).message).toBe(
      'This claim code has already been used',
    );
    expect(f.users.findPlaceholderByClaimCode).toHaveBeenLastCalledWith('CLAIM-ABCD2345');
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('stores the picture under profile-images/<userId>-<random>.<ext> and links it on the user', async () => {
    const result = await f.service.signUp(request({ profilePicture: PNG, profilePictureContentType: 'application/pdf' }));
    const [key, body, type] = f.storage.put.mock.calls[0]!;
    expect(key).toMatch(new RegExp(`^profile-images/${result.user!.id}-[0-9a-f]{16}\\.png$`));
    expect(body.equals(PNG)).toBe(true);
    expect(type).toBe('image/png'); // sniffed, not the declared type
    expect(result.user!.profileImageUrl).toBe(`/media/${key}`);
    expect(f.storage.put.mock.invocationCallOrder[0]!).toBeLessThan(f.transactions.run.mock.invocationCallOrder[0]!);
  });

  it('maps a lost race on a unique index to the same conflict, and removes the stored picture', async () => {
    f.users.insert.mockRejectedValueOnce(uniqueViolation('users_twitter_username_account_key'));
    const err = await failure(f.service.signUp(request({ profilePicture: PNG })));
    expect([err.code, err.message]).toEqual([status.ALREADY_EXISTS, 'That Twitter handle is already registered']);
    expect(f.storage.delete).toHaveBeenCalledWith(f.storage.put.mock.calls[0]![0]);

    f.users.insert.mockRejectedValueOnce(uniqueViolation('users_email_key'));
    expect((await failure(f.service.signUp(request({ profilePicture: PNG })))).message).toBe('An account with this email already exists');
  });

  it('passes other database errors through, still removing the picture', async () => {
    const boom = new Error('connection lost');
    f.outbox.append.mockRejectedValueOnce(boom);
    await expect(f.service.signUp(request({ profilePicture: PNG }))).rejects.toBe(boom);
    expect(f.storage.delete).toHaveBeenCalledTimes(1);
  });

  it('re-reads the placeholder under lock: a claim that lost the race is refused and leaves nothing', async () => {
    f.users.findPlaceholderByClaimCode.mockResolvedValueOnce(placeholder()).mockResolvedValueOnce(placeholder({ claimedBy: 'winner' }));
    const err = await failure(f.service.signUp(request({ claimCode: 'CLAIM-ABCD2345', profilePicture: PNG })));
    expect(err.message).toBe('This claim code has already been used');
    expect(f.users.findPlaceholderByClaimCode).toHaveBeenLastCalledWith('CLAIM-ABCD2345', tx);
    expect(f.users.insert).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
    expect(f.storage.delete).toHaveBeenCalledTimes(1);
  });

  it('claims a placeholder: inherits its multiplier and, when none were given, its name and images', async () => {
    f.users.findPlaceholderByClaimCode.mockResolvedValue(placeholder());
    const result = await f.service.signUp(request({ claimCode: 'CLAIM-ABCD2345', tokenLink: 'https://pump.fun/coin/xyz' }));

    const inserted = f.users.insert.mock.calls[0]![1];
    expect(inserted).toMatchObject({
      displayName: 'Big Streamer',
      profileImageUrl: 'https://img.example/p.png',
      bannerImageUrl: 'https://img.example/b.png',
      streamerMultiplier: '1.75',
      twitterUsername: 'Streamer_1',
      email: 'streamer@example.com',
      isPlaceholder: 'false',
    });
    expect(inserted.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    const [, placeholderId, patch] = f.users.update.mock.calls[0]!;
    expect(placeholderId).toBe(placeholder().id);
    expect(patch).toMatchObject({ claimedBy: inserted.id, claimedAt: inserted.createdAt });
    expect(result.claimedProfile).toEqual({ id: placeholder().id, displayName: 'Big Streamer' });

    expect(f.tokens.insert.mock.calls[0]![1]).toMatchObject({
      streamerId: inserted.id,
      name: 'Big Streamer',
      pumpFunLink: 'https://pump.fun/coin/xyz',
      isActive: 'true',
    });
    const events = f.outbox.append.mock.calls.map(([, type, data]) => [type, data]);
    expect(events).toEqual([
      ['user.registered', expect.objectContaining({ claimedPlaceholderId: placeholder().id })],
      [
        'user.updated',
        expect.objectContaining({
          changed: ['claimedBy', 'claimedAt'],
          user: expect.objectContaining({ id: placeholder().id, claimedBy: inserted.id }),
        }),
      ],
      [
        'token.changed',
        {
          token: expect.objectContaining({
            streamerId: inserted.id,
            name: 'Big Streamer',
            pumpFunLink: 'https://pump.fun/coin/xyz',
            isActive: 'true',
          }),
        },
      ],
    ]);
  });

  it('keeps the name and picture the streamer gave over the placeholder’s', async () => {
    f.users.findPlaceholderByClaimCode.mockResolvedValue(placeholder());
    await f.service.signUp(request({ claimCode: 'CLAIM-ABCD2345', displayName: 'My Own Name', profilePicture: PNG }));
    const inserted = f.users.insert.mock.calls[0]![1];
    expect(inserted.displayName).toBe('My Own Name');
    expect(inserted.profileImageUrl).toMatch(/^\/media\/profile-images\//);
    expect(inserted.bannerImageUrl).toBe('https://img.example/b.png');
  });

  it('names the token after the handle when there is no display name, at most 50 characters', async () => {
    await f.service.signUp(request({ tokenLink: 'https://pump.fun/coin/xyz' }));
    expect(f.tokens.insert.mock.calls[0]![1].name).toBe('Streamer_1');
    f.tokens.insert.mockClear();
    await f.service.signUp(request({ tokenLink: 'https://pump.fun/coin/xyz', displayName: 'n'.repeat(80) }));
    expect(f.tokens.insert.mock.calls[0]![1].name).toBe('n'.repeat(50));
  });

  it('creates no token for clippers and no event but user.registered without a claim', async () => {
    await f.service.signUp(request({ role: 'clipper', tokenLink: 'https://pump.fun/coin/xyz' }));
    expect(f.tokens.insert).not.toHaveBeenCalled();
    expect(f.outbox.append.mock.calls.map((c) => c[1])).toEqual(['user.registered']);
    expect(f.sessions.create).toHaveBeenCalledWith(
      tx,
      expect.any(String),
      { ip: '203.0.113.9', userAgent: 'jest' },
      'password',
      expect.any(Date),
    );
  });

  it('queues the link that verifies the address in the transaction that makes the account', async () => {
    const result = await f.service.signUp(request({ role: 'clipper' }));
    expect(f.verification.queueLink).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ id: result.user!.id, email: 'streamer@example.com' }),
      expect.any(Date),
    );
  });
});

describe('AuthService.requestPasswordReset (ADR 0032)', () => {
  it('does the same work for every request: the password hashed, one pending row as asked, nothing looked up or mailed', async () => {
    const config = { PASSWORD_HASH_COST: 10 };
    const { service, mock } = createTestService(AuthService, { [CONFIG]: config, [LOGGER]: pino({ level: 'silent' }) });
    hashForReal(mock(PasswordHasher), config);
    const users = mock(UserRepository);
    const links = mock(EmailLinkRepository);
    links.insertResetRequest.mockResolvedValue(undefined);
    const mail = mock(MailService);
    runTransactionsWith(mock(TransactionRunner), tx);

    await expect(
      service.requestPasswordReset({
        twitterHandle: '@Someone',
        email: 'Someone@Example.com',
        newPassword: 'new password',
        client: { ip: '198.51.100.9' },
      }),
    ).resolves.toEqual({});
    expect(users.findAccountByHandleAndEmail).not.toHaveBeenCalled();
    expect(links.countResetLinksSince).not.toHaveBeenCalled();
    expect(mail.queue).not.toHaveBeenCalled();
    expect(links.insertResetRequest).toHaveBeenCalledTimes(1);
    const [, row] = links.insertResetRequest.mock.calls[0]!;
    expect(row).toEqual({
      id: expect.any(String),
      userId: null,
      tokenHash: null,
      passwordHash: expect.stringMatching(/^scrypt\$1024\$/),
      createdAt: expect.any(Date),
      expiresAt: new Date(row.createdAt.getTime() + 30 * 60_000),
      usedAt: null,
      ip: '198.51.100.9',
      handle: 'Someone',
      email: 'someone@example.com',
      processedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain('new password');
  });
});

describe('AuthService.logIn (ADR 0044)', () => {
  it('refuses at once when the hashing line is full, before looking the handle up', async () => {
    const f = setup();
    f.hasher.assertRoom.mockImplementationOnce(() => {
      throw busy('Too many sign-ins right now; please try again in 2 seconds', 2);
    });
    const err = await failure(f.service.logIn({ twitterHandle: 'someone', password: 'long enough', client: { ip: '203.0.113.9' } }));
    expect([err.code, err.retryAfterSeconds]).toEqual([status.UNAVAILABLE, 2]);
    expect(f.hasher.assertRoom).toHaveBeenCalledWith('log-in');
    expect(f.users.findAccountByHandle).not.toHaveBeenCalled();
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('checks an unknown handle against the dummy hash through the same line, and a known one against its own', async () => {
    const f = setup();
    f.users.findAccountByHandle.mockResolvedValueOnce(null);
    const unknown = await failure(f.service.logIn({ twitterHandle: 'nobody', password: 'long enough', client: { ip: '203.0.113.9' } }));
    expect([unknown.code, unknown.message]).toEqual([status.UNAUTHENTICATED, 'Invalid Twitter handle or password']);
    expect(f.hasher.verifyUnknown).toHaveBeenCalledWith('log-in', 'long enough');
    expect(f.hasher.verify).not.toHaveBeenCalled();
  });
});

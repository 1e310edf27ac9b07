import { status } from '@grpc/grpc-js';
import { busyText } from '@clipit/field-rules';
import { DomainError, runWithRequestContext } from '@clipit/service-kit';
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import type { IdentityConfig } from '../config.js';
import { hashPassword, scryptParamsOf } from '../domain/password.js';
import { PasswordHasher } from './password-hasher.service.js';

// The hasher reads its caller's deadline from the request context the kit's gRPC interceptor fills (ADR 0044):
// real scrypt (cost 10), the real line, a deadline in the context as a gRPC call would carry it.

const config = {
  PASSWORD_HASH_COST: 10,
  PASSWORD_HASH_CONCURRENCY: 1,
  PASSWORD_HASH_BUDGET_MS: 2500,
  PASSWORD_HASH_DEADLINE_MARGIN_MS: 1000,
} as IdentityConfig;

const hasher = () => new PasswordHasher(config, pino({ level: 'silent' }));

describe('PasswordHasher and the caller’s deadline', () => {
  it('refuses at once, as a busy refusal with the seconds to wait, when the caller would stop waiting within the margin', async () => {
    const h = hasher();
    const stored = await hashPassword('a-good-password', scryptParamsOf(10));
    // 600 ms left of the caller's 5 s: less than the 1 s the work after the hash needs. Nothing is running.
    const refused = await runWithRequestContext({ correlationId: 'c1', deadline: Date.now() + 600 }, () =>
      h.verify('log-in', 'a-good-password', stored).then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    expect(refused).toBeInstanceOf(DomainError);
    const err = refused as DomainError;
    expect(err.code).toBe(status.UNAVAILABLE);
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(err.message).toBe(busyText('log-in', err.retryAfterSeconds!));
    // assertRoom, asked before the lookup, says the same.
    expect(() => runWithRequestContext({ deadline: Date.now() + 600 }, () => h.assertRoom('sign-up'))).toThrow(DomainError);
  });

  it('hashes when the caller has the time, or set no deadline', async () => {
    const h = hasher();
    const stored = await hashPassword('a-good-password', scryptParamsOf(10));
    await expect(runWithRequestContext({ deadline: Date.now() + 5000 }, () => h.verify('log-in', 'a-good-password', stored))).resolves.toBe(
      true,
    );
    await expect(h.verify('log-in', 'a-good-password', stored)).resolves.toBe(true);
    expect(runWithRequestContext({ deadline: Date.now() + 5000 }, () => h.assertRoom('sign-up'))).toBeUndefined();
  });

  it('skips the rehash of an older hash, not the log-in, when the caller has no time left for it', async () => {
    const h = hasher();
    const older = await hashPassword('a-good-password', scryptParamsOf(11));
    await expect(
      runWithRequestContext({ deadline: Date.now() + 600 }, () => h.rehashIfDue('a-good-password', older)),
    ).resolves.toBeUndefined();
    await expect(runWithRequestContext({ deadline: Date.now() + 5000 }, () => h.rehashIfDue('a-good-password', older))).resolves.toMatch(
      /^scrypt\$1024\$/,
    );
  });
});

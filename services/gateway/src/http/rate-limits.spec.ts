import { status as GrpcStatus } from '@grpc/grpc-js';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { CONFIG, GrpcCallError, LOGGER, RateLimiter } from '@clipit/service-kit';
import { describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import type { GatewayConfig } from '../config.js';
import { DailyQuota, utcDay } from '../rate-limit/daily-quota.js';
import { toErrorAnswer } from './http-errors.js';
import { addressKey, inAbout, LIMITS, limitExample } from './limits.js';
import { LIMIT_COUNTERS, LimitReached, madeNothing, RateLimits } from './rate-limits.js';

// The decisions around each count, with the Redis counters faked (the counters themselves run on the real
// Redis in test/integration, and every limited route through the gateway there): what is counted, what is
// given back, what a refusal says, and what a fault of the counters does.

const WHO = { ip: '203.0.113.9', key: 'u-1' };
const reservation = { keys: ['k:user', 'k:ip'] };

function setup() {
  const daily = automock(DailyQuota);
  const window = {
    attempts: automock(RateLimiter),
    applications: automock(RateLimiter),
    hires: automock(RateLimiter),
    oembed: automock(RateLimiter),
  };
  const config = { SUBMISSION_LIMIT_PER_USER: 20, SUBMISSION_LIMIT_PER_IP: 100 } as GatewayConfig;
  const { service } = createTestService(RateLimits, {
    [LIMIT_COUNTERS]: { daily, window },
    [CONFIG]: config,
    [LOGGER]: pino({ level: 'silent' }),
  });
  return { limits: service, daily, window };
}

const refusedBy = (code: GrpcStatus, message: string) => new GrpcCallError(code, message, 'CreateSubmission', true);

describe('window limits', () => {
  it('count the address and the second counter on the limit’s own counters, under the limit’s name', async () => {
    const { limits, window } = setup();
    window.attempts.hit.mockResolvedValue({ allowed: true });
    await limits.hit('login', { ip: WHO.ip, key: 'Rita' });
    expect(window.attempts.hit).toHaveBeenCalledWith('login', WHO.ip, 'Rita');
    window.hires.hit.mockResolvedValue({ allowed: true });
    await limits.hit('hire-requests', { ip: WHO.ip });
    expect(window.hires.hit).toHaveBeenCalledWith('hire-requests', WHO.ip, undefined);
  });

  it('refuse past the limit with 429, Retry-After and the limit’s words', async () => {
    const { limits, window } = setup();
    window.attempts.hit.mockResolvedValue({ allowed: false, retryAfterSeconds: 840 });
    expect(toErrorAnswer(await rejectedWith(limits.hit('wallet-change', WHO), LimitReached))).toEqual({
      status: 429,
      message: 'Too many attempts. Please wait a few minutes and try again.',
      headers: { 'Retry-After': '840' },
      serverFault: false,
    });
    window.applications.hit.mockResolvedValue({ allowed: false, retryAfterSeconds: 3599 });
    expect((await rejectedWith(limits.hit('clipper-applications', WHO), LimitReached)).message).toBe(
      'Too many applications from your network. Try again in 60 minutes.',
    );
  });

  it('answer 503 when a sign-in limit’s counters fail, and let a preview through', async () => {
    const { limits, window } = setup();
    window.attempts.hit.mockRejectedValue(new Error('a bug'));
    expect(toErrorAnswer(await rejectedWith(limits.hit('login', WHO), Error))).toMatchObject({ status: 503 });
    window.oembed.hit.mockRejectedValue(new Error('a bug'));
    await expect(limits.hit('oembed', WHO)).resolves.toBeUndefined();
  });
});

describe('the daily submission limit', () => {
  it('asks for one per account and one per address, and keeps the count of a created submission', async () => {
    const { limits, daily } = setup();
    daily.reserve.mockResolvedValue({ allowed: true, reservation });
    await expect(limits.counting('submissions', WHO, () => Promise.resolve('created'))).resolves.toBe('created');
    expect(daily.reserve).toHaveBeenCalledWith('submissions', [
      { kind: 'user', value: 'u-1', limit: 20 },
      { kind: 'ip', value: '203.0.113.9', limit: 100 },
    ]);
    expect(daily.release).not.toHaveBeenCalled();
  });

  it('gives the slot back when the service refuses (400, 404, 409, 429): nothing reached the moderation queue', async () => {
    for (const code of [GrpcStatus.INVALID_ARGUMENT, GrpcStatus.NOT_FOUND, GrpcStatus.ALREADY_EXISTS, GrpcStatus.RESOURCE_EXHAUSTED]) {
      const { limits, daily } = setup();
      daily.reserve.mockResolvedValue({ allowed: true, reservation });
      daily.release.mockResolvedValue(undefined);
      const refusal = refusedBy(code, 'This post has already been submitted');
      await expect(limits.counting('submissions', WHO, () => Promise.reject(refusal))).rejects.toBe(refusal);
      expect(daily.release).toHaveBeenCalledWith(reservation);
    }
  });

  it('keeps the slot when the call timed out (the submission may exist) or failed on our side', async () => {
    for (const failure of [refusedBy(GrpcStatus.DEADLINE_EXCEEDED, 'deadline'), new Error('a bug')]) {
      const { limits, daily } = setup();
      daily.reserve.mockResolvedValue({ allowed: true, reservation });
      await expect(limits.counting('submissions', WHO, () => Promise.reject(failure))).rejects.toBe(failure);
      expect(daily.release).not.toHaveBeenCalled();
    }
    expect(madeNothing(refusedBy(GrpcStatus.UNAVAILABLE, 'down'))).toBe(true);
  });

  it('refuses past the limit with 429, Retry-After and a text saying when, without calling the service', async () => {
    const { limits, daily } = setup();
    daily.reserve.mockResolvedValue({
      allowed: false,
      exceeded: { kind: 'user', value: 'u-1', limit: 20 },
      retryAfterSeconds: 3 * 3600 + 5,
      resetsAt: new Date(),
    });
    const create = jest.fn(() => Promise.resolve('created'));
    const refusal = await rejectedWith(limits.counting('submissions', WHO, create), LimitReached);
    expect(create).not.toHaveBeenCalled();
    expect(toErrorAnswer(refusal)).toEqual({
      status: 429,
      message: "You have reached today's limit of 20 submissions. Try again in 4 hours, after 00:00 UTC.",
      headers: { 'Retry-After': '10805' },
      serverFault: false,
    });
  });

  it('names the address when the address is the one spent', async () => {
    const { limits, daily } = setup();
    daily.reserve.mockResolvedValue({
      allowed: false,
      exceeded: { kind: 'ip', value: WHO.ip, limit: 100 },
      retryAfterSeconds: 600,
      resetsAt: new Date(),
    });
    const refusal = await rejectedWith(
      limits.counting('submissions', WHO, () => Promise.resolve('created')),
      LimitReached,
    );
    expect(refusal.message).toBe(
      'Too many submissions from your network today (at most 100 a day). Try again in 10 minutes, after 00:00 UTC.',
    );
  });

  it('lets the submission through when Redis does not answer (an abuse limit fails open)', async () => {
    const { limits, daily } = setup();
    daily.reserve.mockRejectedValue(new Error('Connection is closed.'));
    await expect(limits.counting('submissions', WHO, () => Promise.resolve('created'))).resolves.toBe('created');
    const refusal = refusedBy(GrpcStatus.ALREADY_EXISTS, 'dup');
    await expect(limits.counting('submissions', WHO, () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(daily.release).not.toHaveBeenCalled();
  });
});

describe('the table', () => {
  it('words each limit as before, rounding the wait up in the largest unit that fits', () => {
    expect([0.2, 1, 59, 60, 61, 3599, 3600, 3601, 86_400].map(inAbout)).toEqual([
      'in 1 second',
      'in 1 second',
      'in 59 seconds',
      'in 1 minute',
      'in 2 minutes',
      'in 60 minutes',
      'in 1 hour',
      'in 2 hours',
      'in 24 hours',
    ]);
    expect(limitExample('oembed')).toBe('Too many post previews asked for from your network. Try again in 45 seconds.');
    expect(limitExample('hire-requests')).toBe('Too many hire requests from your network. Try again in 40 minutes.');
    expect(limitExample('submissions')).toBe("You have reached today's limit of 20 submissions. Try again in 5 hours, after 00:00 UTC.");
    expect(LIMITS.submissions.message('user', 3, 30)).toBe(
      "You have reached today's limit of 3 submissions. Try again in 30 seconds, after 00:00 UTC.",
    );
  });

  it('counts an IPv4 address as it is, and an IPv6 address as its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:85a3:0042:1000:8a2e:370:7334')).toBe('2001:db8:85a3:42::/64');
    expect(addressKey('2001:DB8:85a3:42::1')).toBe('2001:db8:85a3:42::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('counts in UTC calendar days', () => {
    expect(utcDay(new Date('2026-11-23T23:59:59.999Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(utcDay(new Date('2026-11-24T00:00:00.000Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

import { status as GrpcStatus } from '@grpc/grpc-js';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { CONFIG, GrpcCallError, LOGGER } from '@clipit/service-kit';
import { describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import type { GatewayConfig } from '../config.js';
import { toErrorAnswer } from '../http/http-errors.js';
import { DailyQuota, utcDay } from '../rate-limit/daily-quota.js';
import { SUBMISSION_QUOTA } from '../tokens.js';
import {
  addressKey,
  createdNothing,
  inAbout,
  SubmissionLimit,
  SubmissionLimitReached,
  submissionLimitMessage,
} from './submission-limit.js';

// The decisions around each submission's count, with the Redis counters faked (the counters themselves
// run on the real Redis in test/integration): what is counted, what is given back, what a refusal says,
// and that a Redis outage lets submissions through.

const WHO = { userId: 'u-1', ip: '203.0.113.9' };
const reservation = { keys: ['k:user', 'k:ip'] };

function setup() {
  const quota = automock(DailyQuota);
  const config = { SUBMISSION_LIMIT_PER_USER: 20, SUBMISSION_LIMIT_PER_IP: 100 } as GatewayConfig;
  const { service } = createTestService(SubmissionLimit, {
    [SUBMISSION_QUOTA]: quota,
    [CONFIG]: config,
    [LOGGER]: pino({ level: 'silent' }),
  });
  return { limit: service, quota };
}

const refusedBy = (code: GrpcStatus, message: string) => new GrpcCallError(code, message, 'CreateSubmission', true);

describe('SubmissionLimit', () => {
  it('asks for one per account and one per address, and keeps the count of a created submission', async () => {
    const { limit, quota } = setup();
    quota.reserve.mockResolvedValue({ allowed: true, reservation });
    await expect(limit.counting(WHO, () => Promise.resolve('created'))).resolves.toBe('created');
    expect(quota.reserve).toHaveBeenCalledWith('submissions', [
      { kind: 'user', value: 'u-1', limit: 20 },
      { kind: 'ip', value: '203.0.113.9', limit: 100 },
    ]);
    expect(quota.release).not.toHaveBeenCalled();
  });

  it('gives the slot back when the service refuses (400, 404, 409, 429): nothing reached the moderation queue', async () => {
    for (const code of [GrpcStatus.INVALID_ARGUMENT, GrpcStatus.NOT_FOUND, GrpcStatus.ALREADY_EXISTS, GrpcStatus.RESOURCE_EXHAUSTED]) {
      const { limit, quota } = setup();
      quota.reserve.mockResolvedValue({ allowed: true, reservation });
      quota.release.mockResolvedValue(undefined);
      const refusal = refusedBy(code, 'This post has already been submitted');
      await expect(limit.counting(WHO, () => Promise.reject(refusal))).rejects.toBe(refusal);
      expect(quota.release).toHaveBeenCalledWith(reservation);
    }
  });

  it('keeps the slot when the call timed out (the submission may exist) or failed on our side', async () => {
    for (const failure of [refusedBy(GrpcStatus.DEADLINE_EXCEEDED, 'deadline'), new Error('a bug')]) {
      const { limit, quota } = setup();
      quota.reserve.mockResolvedValue({ allowed: true, reservation });
      await expect(limit.counting(WHO, () => Promise.reject(failure))).rejects.toBe(failure);
      expect(quota.release).not.toHaveBeenCalled();
    }
    expect(createdNothing(refusedBy(GrpcStatus.UNAVAILABLE, 'down'))).toBe(true);
  });

  it('refuses past the limit with 429, Retry-After and a text saying when, without calling the service', async () => {
    const { limit, quota } = setup();
    quota.reserve.mockResolvedValue({
      allowed: false,
      exceeded: { kind: 'user', value: 'u-1', limit: 20 },
      retryAfterSeconds: 3 * 3600 + 5,
      resetsAt: new Date(),
    });
    const create = jest.fn(() => Promise.resolve('created'));
    const refusal = await rejectedWith(limit.counting(WHO, create), SubmissionLimitReached);
    expect(create).not.toHaveBeenCalled();
    expect(toErrorAnswer(refusal)).toEqual({
      status: 429,
      message: "You have reached today's limit of 20 submissions. Try again in 4 hours, after 00:00 UTC.",
      headers: { 'Retry-After': '10805' },
      serverFault: false,
    });
  });

  it('names the address when the address is the one spent', async () => {
    const { limit, quota } = setup();
    quota.reserve.mockResolvedValue({
      allowed: false,
      exceeded: { kind: 'ip', value: WHO.ip, limit: 100 },
      retryAfterSeconds: 600,
      resetsAt: new Date(),
    });
    const refusal = await rejectedWith(
      limit.counting(WHO, () => Promise.resolve('created')),
      SubmissionLimitReached,
    );
    expect(refusal.message).toBe(
      'Too many submissions from your network today (at most 100 a day). Try again in 10 minutes, after 00:00 UTC.',
    );
  });

  it('lets the submission through when Redis does not answer (an abuse limit fails open)', async () => {
    const { limit, quota } = setup();
    quota.reserve.mockRejectedValue(new Error('Connection is closed.'));
    await expect(limit.counting(WHO, () => Promise.resolve('created'))).resolves.toBe('created');
    const refusal = refusedBy(GrpcStatus.ALREADY_EXISTS, 'dup');
    await expect(limit.counting(WHO, () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(quota.release).not.toHaveBeenCalled();
  });
});

describe('the address a client is counted by', () => {
  it('is an IPv4 address as it is, and an IPv6 address as its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:85a3:0042:1000:8a2e:370:7334')).toBe('2001:db8:85a3:42::/64');
    expect(addressKey('2001:DB8:85a3:42::1')).toBe('2001:db8:85a3:42::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('counts a client rotating through its IPv6 block once', async () => {
    const { limit, quota } = setup();
    quota.reserve.mockResolvedValue({ allowed: true, reservation });
    await limit.counting({ userId: 'u-1', ip: '2001:db8:1:2:aaaa::1' }, () => Promise.resolve('created'));
    await limit.counting({ userId: 'u-1', ip: '2001:db8:1:2:bbbb::2' }, () => Promise.resolve('created'));
    const ips = quota.reserve.mock.calls.map(([, counters]) => counters[1]?.value);
    expect(ips).toEqual(['2001:db8:1:2::/64', '2001:db8:1:2::/64']);
  });
});

describe('the texts and the day', () => {
  it('rounds the wait up, in the largest unit that fits', () => {
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
    expect(submissionLimitMessage('user', 3, 30)).toBe(
      "You have reached today's limit of 3 submissions. Try again in 30 seconds, after 00:00 UTC.",
    );
  });

  it('counts in UTC calendar days', () => {
    expect(utcDay(new Date('2026-11-23T23:59:59.999Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(utcDay(new Date('2026-11-24T00:00:00.000Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

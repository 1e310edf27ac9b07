import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError, GrpcCallError } from '@clipit/service-kit';
import { status } from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { bootstrapRewards } from '../../src/app.js';
import { startRewards, type RewardsHarness } from '../support/rewards-harness.js';

// rewards started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('rewards', () => {
  let h: RewardsHarness;
  beforeAll(async () => {
    h = await startRewards();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is ready once its database and NATS answer; identity away is reported, not a reason to leave traffic', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      checks: { postgres: 'ok', nats: 'ok', identity: expect.stringMatching(/^down/) },
    });
  });

  it('answers the stats of a user its people know without identity, and an id it does not know as retryable while identity is away', async () => {
    const user = await h.newUser('clipper');
    await expect(h.client.getClipperStats({ userId: user.id })).resolves.toMatchObject({ points: 0, tier: 'bronze' });
    const err = await h.client.getClipperStats({ userId: randomUUID() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GrpcCallError);
    expect(err).toMatchObject({
      code: status.UNAVAILABLE,
      message: 'This user cannot be looked up right now; please try again in a minute',
    });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'rewards',
      version: '0.1.0',
      migrations: [
        'CreateEventBusTables1763700000000',
        'CreateRewardsTables1765000000000',
        'AddWalletHolds1766200000000',
        'AddAppliedMultipliers1767300000000',
        'AddEarningHolds1767400000000',
      ],
    });
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapRewards({ REWARDS_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});

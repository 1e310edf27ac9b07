import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { bootstrapFeed } from '../../src/app.js';
import { startFeed, type FeedHarness } from '../support/feed-harness.js';

// feed started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('feed', () => {
  let h: FeedHarness;
  beforeAll(async () => {
    h = await startFeed();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is ready once its database and NATS answer', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', nats: 'ok', projections: 'ok', identity: 'ok' } });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'feed',
      version: '0.1.0',
      migrations: ['CreateEventBusTables1763700000000', 'CreateReadModels1764600000000', 'AddRewardsAndHiringReadModels1767300000000'],
    });
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapFeed({ FEED_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});

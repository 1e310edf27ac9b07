import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { bootstrapSocial } from '../../src/app.js';
import { startSocialAlone, type SocialHarness } from '../support/social-harness.js';

// social started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('social', () => {
  let h: SocialHarness;
  beforeAll(async () => {
    h = await startSocialAlone();
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

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'social',
      version: '0.1.0',
      migrations: ['CreateEventBusTables1763700000000', 'CreateSocialTables1764500000000', 'KeepClipVideo1766400000000'],
    });
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapSocial({ SOCIAL_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});

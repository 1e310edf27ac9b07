import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { bootstrapCampaigns } from '../../src/app.js';
import { startCampaigns, type CampaignsHarness } from '../support/campaigns-harness.js';

// campaigns started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('campaigns', () => {
  let h: CampaignsHarness;
  beforeAll(async () => {
    h = await startCampaigns();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is ready once its database and NATS answer', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', nats: 'ok' } });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'campaigns',
      version: '0.1.0',
      migrations: [
        'CreateEventBusTables1763700000000',
        'CreateClipperApplications1764300000000',
        'CreateCampaignsAndHiring1766100000000',
        'AddHireRatings1766900000000',
        'IndexClipsByClipper1766900000001',
        'AddClipperProfileRevision1767300000000',
      ],
    });
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapCampaigns({ CAMPAIGNS_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});

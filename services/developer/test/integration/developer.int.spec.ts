import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { bootstrapDeveloper } from '../../src/app.js';
import { startDeveloper, type DeveloperHarness } from '../support/developer-harness.js';

// developer started by the kit against the real Postgres and NATS: migrated, ready, answering gRPC.

describe('developer', () => {
  let h: DeveloperHarness;
  beforeAll(async () => {
    h = await startDeveloper();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is ready once its database and NATS answer (the webhook queue is reported)', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', nats: 'ok', 'webhook-queue': 'ok' } });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'developer',
      version: '0.1.0',
      migrations: ['CreateEventBusTables1763700000000', 'CreateApiKeys1767000000000', 'CreateWebhooks1767100000000'],
    });
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapDeveloper({ DEVELOPER_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });
});

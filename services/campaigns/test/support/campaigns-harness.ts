import { campaignsContract } from '@clipit/contracts';
import { connectNats, contractClient, type ClientOf } from '@clipit/service-kit';
import { createTestDatabase, deleteEventStreams, dropTestDatabase, freePorts, isolatedNames, testInfra } from '@clipit/testing';
import { bootstrapCampaigns, type CampaignsApp, type CampaignsConfigOverrides } from '../../src/app.js';

/**
 * One campaigns per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 */
export interface CampaignsHarness {
  app: CampaignsApp;
  client: ClientOf<typeof campaignsContract>;
  httpUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startCampaigns(overrides: CampaignsConfigOverrides = {}): Promise<CampaignsHarness> {
  const names = isolatedNames('campaigns');
  const infra = testInfra();
  const databaseUrl = await createTestDatabase(names.database);
  const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
  let app: CampaignsApp;
  try {
    app = await bootstrapCampaigns({
      CAMPAIGNS_DATABASE_URL: databaseUrl,
      CAMPAIGNS_GRPC_PORT: grpcPort,
      CAMPAIGNS_HTTP_PORT: httpPort,
      CAMPAIGNS_BIND_HOST: '127.0.0.1',
      NATS_URL: infra.natsUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_KEY_PREFIX: names.redisKeyPrefix,
      EVENTS_STREAM: names.stream,
      EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      LOG_LEVEL: 'silent',
      ...overrides,
    });
  } catch (err) {
    await dropTestDatabase(names.database);
    throw err;
  }
  const client = contractClient(campaignsContract, `127.0.0.1:${grpcPort}`);
  return {
    app,
    client,
    httpUrl: app.httpUrl,
    databaseUrl,
    async stop() {
      client.close();
      await app.close();
      const nc = await connectNats(infra.natsUrl, 'campaigns-test-cleanup');
      await deleteEventStreams(nc, names.stream).finally(() => nc.close());
      await dropTestDatabase(names.database);
    },
  };
}

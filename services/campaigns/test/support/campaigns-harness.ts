import { campaignsContract } from '@clipit/contracts';
import { contractClient, type ClientOf } from '@clipit/service-kit';
import { collectEvents, startServiceUnderTest, type ReceivedEvent } from '@clipit/testing';
import pg from 'pg';
import { bootstrapCampaigns, type CampaignsApp, type CampaignsConfigOverrides } from '../../src/app.js';

/**
 * One campaigns per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have, a Postgres connection to its database and every
 * campaigns event it publishes. `stop()` closes it and removes what the run made.
 */
export interface CampaignsHarness {
  app: CampaignsApp;
  client: ClientOf<typeof campaignsContract>;
  httpUrl: string;
  databaseUrl: string;
  names: { subjectPrefix: string; stream: string };
  db: pg.Client;
  events: ReceivedEvent[];
  count(sql: string, params?: unknown[]): Promise<number>;
  stop(): Promise<void>;
}

export async function startCampaigns(overrides: CampaignsConfigOverrides = {}): Promise<CampaignsHarness> {
  const service = await startServiceUnderTest('campaigns', 'CAMPAIGNS', bootstrapCampaigns, overrides);
  const client = contractClient(campaignsContract, service.grpcAddress);
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  const published = await collectEvents(service.names.stream, `${service.names.subjectPrefix}.campaigns.>`);
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    names: service.names,
    db,
    events: published.events,
    async count(sql, params = []) {
      const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
      return rows[0]!.n;
    },
    async stop() {
      client.close();
      await published.close();
      await db.end();
      await service.stop();
    },
  };
}

import { campaignsContract, type EventData, type EventType } from '@clipit/contracts';
import { connectNats, contractClient, EventPublisher, type ClientOf, type NatsConnection } from '@clipit/service-kit';
import { collectEvents, startServiceUnderTest, waitFor, type ReceivedEvent } from '@clipit/testing';
import pg from 'pg';
import { bootstrapCampaigns, campaignsService, type CampaignsApp, type CampaignsConfigOverrides } from '../../src/app.js';

/**
 * One campaigns per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have, a Postgres connection to its database, every campaigns
 * event it publishes, and a publisher of the identity, rewards and submissions events it consumes.
 * `stop()` closes it and removes what the run made.
 */
export interface CampaignsHarness {
  app: CampaignsApp;
  client: ClientOf<typeof campaignsContract>;
  httpUrl: string;
  databaseUrl: string;
  names: { subjectPrefix: string; stream: string };
  db: pg.Client;
  events: ReceivedEvent[];
  publisher: EventPublisher;
  count(sql: string, params?: unknown[]): Promise<number>;
  /** Publishes an event campaigns consumes and waits until campaigns has applied it (its inbox holds it). */
  feed<T extends EventType>(type: T, data: EventData<T>): Promise<void>;
  stop(): Promise<void>;
}

export { submissionSnapshot, userSnapshot } from '@clipit/testing';

export async function startCampaigns(overrides: CampaignsConfigOverrides = {}): Promise<CampaignsHarness> {
  const service = await startServiceUnderTest('campaigns', 'CAMPAIGNS', bootstrapCampaigns, overrides, campaignsService);
  const client = contractClient(campaignsContract, service.grpcAddress);
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  const published = await collectEvents(service.names.stream, `${service.names.subjectPrefix}.campaigns.>`);
  const nc: NatsConnection = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'campaigns-test-publisher');
  const publisher = new EventPublisher({ nc, names: service.names });
  const count = async (sql: string, params: unknown[] = []) => {
    const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
    return rows[0]!.n;
  };
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    names: service.names,
    db,
    events: published.events,
    publisher,
    count,
    async feed(type, data) {
      const { envelope } = await publisher.publish(type, data);
      await waitFor(
        async () => ((await count('SELECT count(*) FROM inbox WHERE event_id = $1', [envelope.id])) === 1 ? true : undefined),
        10_000,
        `${type} applied`,
      );
    },
    async stop() {
      client.close();
      await published.close();
      await nc.close();
      await db.end();
      await service.stop();
    },
  };
}

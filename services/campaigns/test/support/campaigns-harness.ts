import { campaignsContract, type EventEnvelope } from '@clipit/contracts';
import { connectNats, contractClient, jetstream, type ClientOf } from '@clipit/service-kit';
import { createTestDatabase, deleteEventStreams, dropTestDatabase, freePorts, isolatedNames, testInfra } from '@clipit/testing';
import type { ConsumerMessages } from '@nats-io/jetstream';
import pg from 'pg';
import { bootstrapCampaigns, type CampaignsApp, type CampaignsConfigOverrides } from '../../src/app.js';

export interface ReceivedEvent {
  subject: string;
  msgId: string | undefined;
  envelope: EventEnvelope;
}

/**
 * One campaigns per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have, a Postgres connection to its database and every
 * campaigns event it publishes (an ephemeral JetStream consumer). `stop()` closes it and removes what
 * the run made.
 */
export interface CampaignsHarness {
  app: CampaignsApp;
  client: ClientOf<typeof campaignsContract>;
  httpUrl: string;
  databaseUrl: string;
  names: ReturnType<typeof isolatedNames>;
  db: pg.Client;
  events: ReceivedEvent[];
  count(sql: string, params?: unknown[]): Promise<number>;
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
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();

  const nc = await connectNats(infra.natsUrl, 'campaigns-test');
  const events: ReceivedEvent[] = [];
  const consumer = await jetstream(nc).consumers.get(names.stream, { filter_subjects: `${names.subjectPrefix}.campaigns.>` });
  const messages: ConsumerMessages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) {
      events.push({ subject: msg.subject, msgId: msg.headers?.get('Nats-Msg-Id'), envelope: msg.json<EventEnvelope>() });
    }
  })();

  return {
    app,
    client,
    httpUrl: app.httpUrl,
    databaseUrl,
    names,
    db,
    events,
    async count(sql, params = []) {
      const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
      return rows[0]!.n;
    },
    async stop() {
      client.close();
      await messages.close();
      await reading;
      await db.end();
      await app.close();
      await deleteEventStreams(nc, names.stream).finally(() => nc.close());
      await dropTestDatabase(names.database);
    },
  };
}

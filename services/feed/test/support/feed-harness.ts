import { feedContract, identityContract, type EventData, type EventType } from '@clipit/contracts';
import { connectNats, contractClient, EventPublisher, type ClientOf, type NatsConnection } from '@clipit/service-kit';
import { grpcError, startFakeGrpcServer, startServiceUnderTest, waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import pg from 'pg';
import { bootstrapFeed, feedService, type FeedApp, type FeedConfigOverrides } from '../../src/app.js';

/**
 * One feed per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have, a Postgres connection to its database, and a publisher
 * of the events it consumes (on the run's stream, as identity, submissions and social publish them), and
 * identity standing in at its contract, knowing no user beyond those the tests announce by events (an id the
 * people read model has not heard of is confirmed with it before 'User not found', ADR 0037).
 * `stop()` closes it and removes what the run made.
 */
export interface FeedHarness {
  app: FeedApp;
  client: ClientOf<typeof feedContract>;
  httpUrl: string;
  databaseUrl: string;
  names: { subjectPrefix: string; stream: string; database: string };
  nc: NatsConnection;
  db: pg.Client;
  publisher: EventPublisher;
  /** Publishes events in order and waits until the feed applied every one of them. */
  apply(...events: Array<Event>): Promise<void>;
  count(sql: string, params?: unknown[]): Promise<number>;
  stop(): Promise<void>;
}

export type Event = { [T in EventType]: readonly [T, EventData<T>] }[EventType];

export async function startFeed(overrides: FeedConfigOverrides = {}): Promise<FeedHarness> {
  const identity = await startFakeGrpcServer(identityContract, {
    GetUser: () => {
      throw grpcError(status.NOT_FOUND, 'User not found');
    },
  });
  const service = await startServiceUnderTest(
    'feed',
    'FEED',
    bootstrapFeed,
    { IDENTITY_GRPC_URL: identity.url, ...overrides },
    feedService,
  );
  const client = contractClient(feedContract, service.grpcAddress);
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  const nc: NatsConnection = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'feed-test-publisher');
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
    nc,
    db,
    publisher,
    count,
    async apply(...events) {
      const ids: string[] = [];
      for (const [type, data] of events) ids.push((await publisher.publish(type, data as never)).envelope.id);
      await waitFor(
        async () =>
          (await count(`SELECT count(*) FROM inbox WHERE consumer = 'feed' AND event_id = ANY($1::uuid[])`, [ids])) === ids.length
            ? true
            : undefined,
        10_000,
        `${ids.length} event(s) applied`,
      );
    },
    async stop() {
      client.close();
      await nc.close();
      await db.end();
      await service.stop();
      await identity.stop();
    },
  };
}

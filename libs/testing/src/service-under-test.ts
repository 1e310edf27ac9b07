// One service of the platform started for a test file, the way every service's harness starts it: its own
// database, event stream, subject prefix and Redis key prefix, free ports, quiet logs; and a reader of the
// events it publishes. Made for the harnesses the service generator writes (test/support/<name>-harness.ts).
import type { EventEnvelope } from '@clipit/contracts';
import { connectNats, jetstream } from '@clipit/service-kit';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { deleteEventStreams } from './cleanup.js';
import { isolatedNames, testInfra } from './infra.js';
import { freePorts } from './ports.js';
import { createTestDatabase, dropTestDatabase, type SchemaTemplate } from './postgres.js';

export interface ServiceUnderTest<A> {
  app: A;
  names: ReturnType<typeof isolatedNames>;
  databaseUrl: string;
  /** host:port of its gRPC server, for `contractClient`. */
  grpcAddress: string;
  /** Closes the service, then deletes its stream and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts a service with `bootstrap` on what this run owns alone. `envPrefix` is the service's variable
 * prefix (ADMIN for ADMIN_DATABASE_URL, ADMIN_GRPC_PORT, …); `overrides` win over everything set here.
 * Given the service's `schema`, its database is a copy of the run's migrated template (see createTestDatabase).
 * The database is dropped again when the service fails to start.
 */
export async function startServiceUnderTest<A extends { close(): Promise<void> }, O extends object>(
  label: string,
  envPrefix: string,
  bootstrap: (config: O) => Promise<A>,
  overrides: O,
  schema?: SchemaTemplate,
): Promise<ServiceUnderTest<A>> {
  const names = isolatedNames(label);
  const infra = testInfra();
  const databaseUrl = await createTestDatabase(names.database, schema);
  const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
  let app: A;
  try {
    app = await bootstrap({
      [`${envPrefix}_DATABASE_URL`]: databaseUrl,
      [`${envPrefix}_GRPC_PORT`]: grpcPort,
      [`${envPrefix}_HTTP_PORT`]: httpPort,
      [`${envPrefix}_BIND_HOST`]: '127.0.0.1',
      NATS_URL: infra.natsUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_KEY_PREFIX: names.redisKeyPrefix,
      EVENTS_STREAM: names.stream,
      EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      LOG_LEVEL: 'silent',
      ...overrides,
    } as O);
  } catch (err) {
    await dropTestDatabase(names.database);
    throw err;
  }
  return {
    app,
    names,
    databaseUrl,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    async stop() {
      await app.close();
      const nc = await connectNats(infra.natsUrl, `${label}-test-cleanup`);
      try {
        await deleteEventStreams(nc, names.stream);
      } finally {
        await nc.close();
      }
      await dropTestDatabase(names.database);
    },
  };
}

export interface ReceivedEvent<E = EventEnvelope> {
  subject: string;
  /** The Nats-Msg-Id header: the envelope's id, JetStream's duplicate window key. */
  msgId: string | undefined;
  envelope: E;
}

/**
 * Every event published on `stream` under `subjects` (e.g. `<prefix>.identity.>`), collected as it
 * arrives by an ephemeral consumer; `close()` stops reading.
 */
export async function collectEvents(
  stream: string,
  subjects: string,
  natsUrl = testInfra().natsUrl,
): Promise<{ events: ReceivedEvent[]; close(): Promise<void> }> {
  const nc = await connectNats(natsUrl, 'test-event-reader');
  const events: ReceivedEvent[] = [];
  const consumer = await jetstream(nc).consumers.get(stream, { filter_subjects: subjects });
  const messages: ConsumerMessages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) {
      events.push({ subject: msg.subject, msgId: msg.headers?.get('Nats-Msg-Id'), envelope: msg.json<EventEnvelope>() });
    }
  })();
  return {
    events,
    async close() {
      await messages.close();
      await reading;
      await nc.close();
    },
  };
}

import { rewardsContract, type SubmissionSnapshot, type UserSnapshot } from '@clipit/contracts';
import { connectNats, contractClient, EventPublisher, type ClientOf, type NatsConnection } from '@clipit/service-kit';
import {
  collectEvents,
  freePorts,
  startServiceUnderTest,
  submissionSnapshot,
  userSnapshot,
  waitFor,
  type ReceivedEvent,
} from '@clipit/testing';
import pg from 'pg';
import { bootstrapRewards, rewardsService, type RewardsApp, type RewardsConfigOverrides } from '../../src/app.js';

/**
 * One rewards per test file, on its own database, event stream and subject prefix, listening on free
 * ports (identity at a closed one), with a gRPC client as its callers have, every event it publishes (`events`), and a publisher of
 * the identity, social and submissions events it consumes. `stop()` closes it and removes what the run made.
 */
export interface RewardsHarness {
  app: RewardsApp;
  client: ClientOf<typeof rewardsContract>;
  httpUrl: string;
  databaseUrl: string;
  db: pg.Client;
  events: ReceivedEvent[];
  publisher: EventPublisher;
  count(sql: string, params?: unknown[]): Promise<number>;
  /** A user identity announced (user.registered), once rewards' people hold them. */
  newUser(role: UserSnapshot['role'], patch?: Partial<UserSnapshot>): Promise<UserSnapshot>;
  /**
   * Publishes a submission event and waits until rewards has applied it (its row shows the snapshot's
   * updatedAt). The snapshot is given a fresh updatedAt unless `patch` sets one.
   */
  submission(
    type: 'submission.created' | 'submission.approved' | 'submission.rejected',
    patch: Partial<SubmissionSnapshot>,
  ): Promise<SubmissionSnapshot>;
  stop(): Promise<void>;
}

export { submissionSnapshot, userSnapshot } from '@clipit/testing';

export async function startRewards(overrides: RewardsConfigOverrides = {}): Promise<RewardsHarness> {
  // identity at a port nobody listens on unless a test gives one: the people read model (fed by the events
  // a test publishes) answers, and an id it lacks shows what callers see while identity is away.
  const [closed] = (await freePorts(1)) as [number];
  const service = await startServiceUnderTest(
    'rewards',
    'REWARDS',
    bootstrapRewards,
    { IDENTITY_GRPC_URL: `127.0.0.1:${closed}`, ...overrides },
    rewardsService,
  );
  const client = contractClient(rewardsContract, service.grpcAddress);
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  const published = await collectEvents(service.names.stream, `${service.names.subjectPrefix}.rewards.>`);
  const nc: NatsConnection = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'rewards-test-publisher');
  const publisher = new EventPublisher({ nc, names: service.names });
  const count = async (sql: string, params: unknown[] = []) => {
    const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
    return rows[0]!.n;
  };
  let clock = Date.now();
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    db,
    events: published.events,
    publisher,
    count,
    async newUser(role, patch = {}) {
      const user = userSnapshot(role, patch);
      await publisher.publish('user.registered', { user, claimedPlaceholderId: null });
      await waitFor(
        async () =>
          (await count('SELECT count(*) FROM people WHERE id = $1 AND source_updated_at IS NOT NULL', [user.id])) === 1 ? true : undefined,
        10_000,
        'person projected',
      );
      return user;
    },
    async submission(type, patch) {
      clock = Math.max(clock + 1, Date.now());
      const status = type === 'submission.created' ? 'pending' : type === 'submission.approved' ? 'approved' : 'rejected';
      const s = submissionSnapshot({
        status,
        approvedAt: status === 'approved' ? new Date(clock).toISOString() : null,
        rejectedReason: status === 'rejected' ? 'Not a clip of the stream' : null,
        updatedAt: new Date(clock).toISOString(),
        ...patch,
      });
      await publisher.publish(type, { submission: s });
      await waitFor(
        async () =>
          (await count('SELECT count(*) FROM submissions WHERE id = $1 AND source_updated_at >= $2', [s.id, s.updatedAt])) === 1
            ? true
            : undefined,
        10_000,
        `${type} applied`,
      );
      return s;
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

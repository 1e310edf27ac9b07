import { randomUUID } from 'node:crypto';
import { socialContract, type SubmissionSnapshot, type UserSnapshot } from '@clipit/contracts';
import { connectNats, contractClient, EventPublisher, GrpcCallError, type ClientOf, type NatsConnection } from '@clipit/service-kit';
import {
  collectEvents,
  freePorts,
  startServiceUnderTest,
  submissionSnapshot,
  userSnapshot,
  waitFor,
  type ReceivedEvent,
} from '@clipit/testing';
import { expect } from '@jest/globals';
import pg from 'pg';
import { bootstrapSocial, socialService, type SocialApp, type SocialConfigOverrides } from '../../src/app.js';

/**
 * One social per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have, a Postgres connection to its database, every social
 * event it publishes, and a publisher of the identity and submissions events it consumes (on the run's
 * stream, as those services publish them). `stop()` closes it and removes what the run made.
 */
export interface SocialHarness {
  app: SocialApp;
  client: ClientOf<typeof socialContract>;
  httpUrl: string;
  databaseUrl: string;
  names: { subjectPrefix: string; stream: string };
  db: pg.Client;
  events: ReceivedEvent[];
  publisher: EventPublisher;
  /** A user identity announced (user.registered), once social's people read model holds them. */
  newUser(role: UserSnapshot['role'], patch?: Partial<UserSnapshot>): Promise<UserSnapshot>;
  /** A submission submissions announced (submission.approved, in the feed unless told), once social's clips hold it. */
  newClip(patch?: Partial<SubmissionSnapshot>): Promise<SubmissionSnapshot>;
  count(sql: string, params?: unknown[]): Promise<number>;
  stop(): Promise<void>;
}

export { submissionSnapshot, userSnapshot } from '@clipit/testing';

export async function startSocial(overrides: SocialConfigOverrides = {}): Promise<SocialHarness> {
  const service = await startServiceUnderTest('social', 'SOCIAL', bootstrapSocial, overrides, socialService);
  // 30 s, not the services' 5 s: these tests judge answers and counts, and on a loaded 2-core test machine
  // 1,000 toggles queued on one clip's row have run past 5 s (a deadline error, not a wrong count).
  const client = contractClient(socialContract, service.grpcAddress, 30_000);
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  const published = await collectEvents(service.names.stream, `${service.names.subjectPrefix}.social.>`);
  const nc: NatsConnection = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'social-test-publisher');
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
    async newUser(role, patch = {}) {
      const user = userSnapshot(role, patch);
      await publisher.publish('user.registered', { user, claimedPlaceholderId: null });
      await waitFor(
        async () => ((await count('SELECT count(*) FROM people WHERE id = $1', [user.id])) === 1 ? true : undefined),
        10_000,
        'person projected',
      );
      return user;
    },
    async newClip(patch = {}) {
      // In the feed unless the patch says otherwise: approved (the snapshot's default), added, its video playable.
      const id = randomUUID();
      const submission = submissionSnapshot({
        id,
        videoState: 'ready',
        hasVideo: true,
        videoUrl: `/media/videos/${id}/video.mp4`,
        ...patch,
      });
      await publisher.publish('submission.approved', { submission });
      await waitFor(
        async () => ((await count('SELECT count(*) FROM clips WHERE id = $1', [submission.id])) === 1 ? true : undefined),
        10_000,
        'clip projected',
      );
      return submission;
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

/**
 * social with identity pointed at a port nobody listens on: the people read model (fed by the events a
 * test publishes) answers everything, and a user it lacks shows what callers see while identity is away.
 */
export async function startSocialAlone(): Promise<SocialHarness> {
  const [closed] = (await freePorts(1)) as [number];
  return startSocial({ IDENTITY_GRPC_URL: `127.0.0.1:${closed}` });
}

/** The gRPC status and message a call was refused with (fails the test when it was not refused). */
export async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrpcCallError);
  return [(err as GrpcCallError).code, (err as GrpcCallError).message];
}

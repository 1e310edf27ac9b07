import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaKeys, protoFile, submissionsV1 } from '@clipit/contracts';
import { createMediaQueue, type MediaQueue } from '@clipit/media-queue';
import { connectNats, createGrpcClient, EventPublisher, GrpcCallError, jetstreamManager, type NatsConnection } from '@clipit/service-kit';
import { FsStorageDriver } from '@clipit/storage';
import {
  createTestDatabase,
  deleteEventStreams,
  deleteKeysWithPrefix,
  dropTestDatabase,
  freePorts,
  isolatedNames,
  isolatedServiceEnv,
  rejectedWith,
  testInfra,
  waitFor,
} from '@clipit/testing';
import { expect } from '@jest/globals';
import { Redis } from 'ioredis';
import pg from 'pg';
import { bootstrapSubmissions, submissionsService, type SubmissionsApp, type SubmissionsConfigOverrides } from '../../src/app.js';

export type SubmissionsClient = ReturnType<typeof createGrpcClient<submissionsV1.SubmissionsServiceClient>>;

/** Where finished videos are served in these tests: an absolute URL, so a test sees it is the configured one. */
export const MEDIA_BASE_URL = 'https://media.clipit.test/m';

/**
 * One submissions service per test file, on its own database, event stream and subject prefix, Redis
 * key prefix (so its own media queue) and storage folder, listening on free ports. Around it: a gRPC
 * client as the gateway has, a Postgres client for looking at rows, the same storage folder through the
 * fs driver (standing in for the client's PUT), the media queue under the run's prefix (to look at the
 * jobs), and an EventPublisher on the run's stream (to state the media worker's verdicts).
 *
 * identity is not started: these tests tag no token or streamer (the only calls submissions makes to
 * it), and its address points at a port nothing listens on, so a stray call fails at once. The tag
 * tests pass IDENTITY_GRPC_URL of a stand-in (support/fake-identity.ts) instead.
 */
export interface SubmissionsHarness {
  app: SubmissionsApp;
  client: SubmissionsClient;
  db: pg.Client;
  nc: NatsConnection;
  names: ReturnType<typeof isolatedNames>;
  storage: FsStorageDriver;
  /** The media queue the service feeds, read directly from Redis (no worker consumes it here). */
  queue: MediaQueue;
  /** Publishes media.* events onto the run's stream, as the media worker does. */
  mediaWorker: EventPublisher;
  httpUrl: string;
  /** A new pending submission of a post no other test submits. */
  newSubmission(userId?: string): Promise<submissionsV1.Submission>;
  /** A submission with an upload URL issued for it (nothing stored yet). */
  withUploadUrl(userId?: string): Promise<{ userId: string; submission: submissionsV1.Submission; upload: submissionsV1.VideoUpload }>;
  /** A submission whose upload was stored and finalized: the video is processing. */
  finalizedUpload(
    bytes?: Buffer,
    contentType?: string,
    userId?: string,
  ): Promise<{ userId: string; submissionId: string; videoId: string }>;
  rows<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  count(sql: string, params?: unknown[]): Promise<number>;
  /** Resolves once the service's durable consumer has acknowledged every message up to `seq`. */
  consumerPast(seq: number): Promise<void>;
  /** How many messages the service's dead-letter stream holds. */
  deadLetters(): Promise<number>;
  stop(): Promise<void>;
}

/** Bytes standing in for a video: finalize checks presence, size and type, never the content. */
export const SMALL_VIDEO = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 not really a video, finalize does not look');

let postSeq = 0;
/** A post link no other submission in the run uses. */
export function postUrl(handle = 'clipper'): string {
  postSeq += 1;
  return `https://x.com/${handle}/status/${Date.now()}${process.env['JEST_WORKER_ID'] ?? '0'}${String(postSeq).padStart(4, '0')}`;
}

export async function startSubmissions(overrides: SubmissionsConfigOverrides = {}): Promise<SubmissionsHarness> {
  const names = isolatedNames('submissions');
  const infra = testInfra();
  const cleanups: Array<[string, () => Promise<unknown>]> = [];
  const stop = async () => {
    const errors: unknown[] = [];
    for (const [, fn] of cleanups.splice(0).reverse()) await fn().catch((err: unknown) => errors.push(err));
    if (errors.length > 0) throw new AggregateError(errors, 'stopping the submissions harness failed');
  };

  try {
    const databaseUrl = await createTestDatabase(names.database, submissionsService);
    cleanups.push(['database', () => dropTestDatabase(names.database)]);
    const storageRoot = await mkdtemp(join(tmpdir(), 'clipit-submissions-storage-'));
    cleanups.push(['storage', () => rm(storageRoot, { recursive: true, force: true })]);
    const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1 });
    cleanups.push([
      'redis keys',
      async () => {
        await deleteKeysWithPrefix(redis, names.redisKeyPrefix);
        redis.disconnect();
      },
    ]);
    const nc = await connectNats(infra.natsUrl, 'submissions-test');
    cleanups.push([
      'nats',
      async () => {
        await deleteEventStreams(nc, names.stream);
        await nc.close();
      },
    ]);
    const queue = createMediaQueue({ connection: { url: infra.redisUrl }, prefix: names.redisKeyPrefix });
    cleanups.push([
      'queue',
      async () => {
        await queue.obliterate({ force: true });
        await queue.close();
      },
    ]);

    // The third port is never bound: identity's address for a service that must not need it.
    const [grpcPort, httpPort, noIdentityPort] = (await freePorts(3)) as [number, number, number];
    const app = await bootstrapSubmissions({
      SUBMISSIONS_DATABASE_URL: databaseUrl,
      SUBMISSIONS_GRPC_PORT: grpcPort,
      SUBMISSIONS_HTTP_PORT: httpPort,
      SUBMISSIONS_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: `127.0.0.1:${noIdentityPort}`,
      ...isolatedServiceEnv(names, storageRoot),
      MEDIA_PUBLIC_BASE_URL: MEDIA_BASE_URL,
      DB_MIGRATE_ON_BOOT: true,
      LOG_LEVEL: 'silent',
      ...overrides,
    });
    cleanups.push(['app', () => app.close()]);
    const client = createGrpcClient<submissionsV1.SubmissionsServiceClient>({
      url: `127.0.0.1:${grpcPort}`,
      packageName: submissionsV1.SUBMISSIONS_V1_PACKAGE_NAME,
      serviceName: submissionsV1.SUBMISSIONS_SERVICE_NAME,
      protoFile: protoFile('submissions'),
      deadlineMs: 15_000,
    });
    cleanups.push(['grpc client', async () => client.close()]);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(['db client', () => db.end()]);

    const storage = new FsStorageDriver(storageRoot);
    const mediaWorker = new EventPublisher({ nc, names: { stream: names.stream, subjectPrefix: names.subjectPrefix } });

    const h: SubmissionsHarness = {
      app,
      client,
      db,
      nc,
      names,
      storage,
      queue,
      mediaWorker,
      httpUrl: `http://127.0.0.1:${httpPort}`,
      async newSubmission(userId = randomUUID()) {
        return client.createSubmission({ userId, name: 'A clip', url: postUrl(), walletAddress: 'pending' });
      },
      async withUploadUrl(userId = randomUUID()) {
        const submission = await h.newSubmission(userId);
        const upload = await client.createVideoUpload({ userId, submissionId: submission.id });
        expect(upload.storageKey).toBe(mediaKeys.upload(upload.videoId));
        return { userId, submission, upload };
      },
      async finalizedUpload(bytes = SMALL_VIDEO, contentType = 'video/mp4', owner?: string) {
        const { userId, submission, upload } = await h.withUploadUrl(owner);
        await storage.put(upload.storageKey, bytes, contentType);
        const finalized = await client.finalizeVideoUpload({ userId, submissionId: submission.id, videoId: upload.videoId });
        expect(finalized).toMatchObject({ id: submission.id, videoState: 'processing', isProcessing: true });
        return { userId, submissionId: submission.id, videoId: upload.videoId };
      },
      async rows<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
        return (await db.query<T>(sql, params)).rows;
      },
      async count(sql, params = []) {
        const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
        return rows[0]!.n;
      },
      async consumerPast(seq) {
        const jsm = await jetstreamManager(nc);
        await waitFor(
          async () => {
            const info = await jsm.consumers.info(names.stream, 'submissions');
            return info.ack_floor.stream_seq >= seq ? true : undefined;
          },
          15_000,
          `the submissions consumer to acknowledge stream sequence ${seq}`,
        );
      },
      async deadLetters() {
        const jsm = await jetstreamManager(nc);
        return (await jsm.streams.info(`${names.stream}_DLQ`)).state.messages;
      },
      stop,
    };
    return h;
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** The GrpcCallError a call failed with (the test fails if it succeeded or failed otherwise). */
export const rejected = (call: Promise<unknown>): Promise<GrpcCallError> => rejectedWith(call, GrpcCallError);

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityV1 } from '@clipit/contracts';
import { connectNats, createGrpcClient, GrpcCallError, type NatsConnection } from '@clipit/service-kit';
import {
  collectEvents,
  createTestDatabase,
  deleteEventStreams,
  dropTestDatabase,
  freePorts,
  isolatedNames,
  isolatedServiceEnv,
  rejectedWith,
  startMailServer,
  testInfra,
  type MailServer,
  type ReceivedEvent,
} from '@clipit/testing';
import pg from 'pg';
import { bootstrapIdentity, identityService, type IdentityApp, type IdentityConfigOverrides } from '../../src/app.js';

export type { ReceivedEvent };

export type IdentityClient = ReturnType<typeof createGrpcClient<identityV1.IdentityServiceClient>>;

/**
 * One identity per test file: its own database, stream, subject prefix and storage folder, the
 * real app on free ports, a real gRPC client, a Postgres client for looking at rows, and an
 * ephemeral JetStream consumer collecting every identity event.
 */
export interface IdentityHarness {
  identity: IdentityApp;
  client: IdentityClient;
  db: pg.Client;
  nc: NatsConnection;
  names: ReturnType<typeof isolatedNames>;
  storageRoot: string;
  httpUrl: string;
  /** host:port of its gRPC server. */
  grpcUrl: string;
  /** The SMTP server identity sends its mail to (a real one, in the test's process). */
  mail: MailServer;
  /** Every identity event seen on the stream so far, in order. */
  events: ReceivedEvent[];
  /** Stored object keys under a folder (sidecar .meta files left out). */
  storedFiles(folder?: string): Promise<string[]>;
  count(sql: string, params?: unknown[]): Promise<number>;
  stop(): Promise<void>;
}

export async function startIdentity(
  overrides: IdentityConfigOverrides = {},
  options: { mail?: MailServer } = {},
): Promise<IdentityHarness> {
  const names = isolatedNames('identity');
  const mail = options.mail ?? (await startMailServer());
  const infra = testInfra();
  const databaseUrl = await createTestDatabase(names.database, identityService);
  const storageRoot = await mkdtemp(join(tmpdir(), 'clipit-identity-storage-'));
  const [grpcPort, httpPort] = (await freePorts(2)) as [number, number];
  const identity = await bootstrapIdentity({
    IDENTITY_DATABASE_URL: databaseUrl,
    IDENTITY_GRPC_PORT: grpcPort,
    IDENTITY_HTTP_PORT: httpPort,
    IDENTITY_BIND_HOST: '127.0.0.1',
    ...isolatedServiceEnv(names, storageRoot),
    MEDIA_PUBLIC_BASE_URL: '/media',
    DB_MIGRATE_ON_BOOT: true,
    LOG_LEVEL: 'warn',
    // Mail through the test's SMTP server, delivered within 0.1 s, with links to a site of its own.
    ...mail.smtpEnv,
    MAIL_DELIVERY_INTERVAL_MS: 100,
    PUBLIC_SITE_URL: 'http://clipit.test',
    ...overrides,
  });
  const client = createGrpcClient<identityV1.IdentityServiceClient>({
    url: `127.0.0.1:${grpcPort}`,
    packageName: 'identity.v1',
    serviceName: 'IdentityService',
    protoFile: 'identity/v1/identity.proto',
    deadlineMs: 15_000,
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();

  const nc = await connectNats(infra.natsUrl, 'identity-test');
  const published = await collectEvents(names.stream, `${names.subjectPrefix}.identity.>`, infra.natsUrl);
  const events = published.events;

  return {
    identity,
    client,
    db,
    nc,
    names,
    storageRoot,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    grpcUrl: `127.0.0.1:${grpcPort}`,
    mail,
    events,
    async storedFiles(folder = 'profile-images') {
      try {
        return (await readdir(join(storageRoot, folder))).filter((f) => !f.endsWith('.meta')).map((f) => `${folder}/${f}`);
      } catch {
        return [];
      }
    },
    async count(sql, params = []) {
      const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
      return rows[0]!.n;
    },
    async stop() {
      client.close();
      await published.close();
      await identity.close();
      await db.end();
      await deleteEventStreams(nc, names.stream);
      await nc.close();
      await dropTestDatabase(names.database);
      await rm(storageRoot, { recursive: true, force: true });
      if (!options.mail) await mail.close();
    },
  };
}

/** A 1x1 transparent PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

let seq = 0;
/** A sign-up request with a handle and email no other test in this file uses. */
export function newSignUp(patch: Partial<identityV1.SignUpRequest> = {}): identityV1.SignUpRequest {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return {
    email: `person${tag}@example.com`,
    twitterHandle: `u_${tag}`,
    walletAddress: WALLET,
    role: 'clipper',
    password: 'password123',
    client: { ip: '203.0.113.7', userAgent: 'integration-test' },
    ...patch,
  };
}

/** The GrpcCallError a call failed with (the test fails if it succeeded or failed otherwise). */
export const rejected = (call: Promise<unknown>): Promise<GrpcCallError> => rejectedWith(call, GrpcCallError);

// Starts the real platform slice the auth journeys need: identity (its own database, event stream and
// storage root) and the gateway in front of it (its own Redis prefix), both on free ports, plus the
// clients a test uses to look behind the gateway (Postgres on identity's database, identity's gRPC).
import { identityV1, protoFile } from '@clipit/contracts';
import { connectNats, createGrpcClient } from '@clipit/service-kit';
import {
  createTestDatabase,
  deleteEventStreams,
  deleteKeysWithPrefix,
  dropTestDatabases,
  freePorts,
  isolatedNames,
  isolatedServiceEnv,
  startMailServer,
  startXApiStandIn,
  startXOembedStandIn,
  testInfra,
  TEST_PASSWORD_HASH_COST,
  type MailServer,
  type XApiStandIn,
  type XOembedStandIn,
} from '@clipit/testing';
import { Redis } from 'ioredis';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bootstrapAdmin, adminService, type AdminApp } from '../../services/admin/src/app.js';
import { bootstrapCampaigns, campaignsService, type CampaignsApp } from '../../services/campaigns/src/app.js';
import { bootstrapDeveloper, developerService, type DeveloperApp } from '../../services/developer/src/app.js';
import { bootstrapFeed, feedService, type FeedApp } from '../../services/feed/src/app.js';
import {
  bootstrapRewards,
  releaseHolds,
  rewardsService,
  runPayouts,
  type PayoutRunResult,
  type RewardsApp,
} from '../../services/rewards/src/app.js';
import { bootstrapGateway, type GatewayApp } from '../../services/gateway/src/app.js';
import type { GatewayConfigOverrides } from '../../services/gateway/src/config.js';
import { bootstrapIdentity, identityService, type IdentityApp } from '../../services/identity/src/app.js';
import { bootstrapMediaWorker, type MediaWorkerApp } from '../../services/media-worker/src/app.js';
import { bootstrapMetricsWorker, type MetricsWorkerApp } from '../../services/metrics-worker/src/app.js';
import { bootstrapSocial, socialService, type SocialApp } from '../../services/social/src/app.js';
import { bootstrapWebhookWorker, type WebhookWorkerApp } from '../../services/webhook-worker/src/app.js';
import { bootstrapSubmissions, submissionsService, type SubmissionsApp } from '../../services/submissions/src/app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The admin password of every e2e platform (the admin area's gate). */
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';

/** The web apps' builds as `npm run build:web` leaves them (the browser tests build them first). */
export const WEB_BUILDS = {
  FRONTEND_SHELL_DIR: join(ROOT, 'frontends/shell/dist'),
  // Empty: each remote from frontends/<name>/dist, resolved against the working directory (the repository root).
  FRONTEND_REMOTES_DIR: '',
} as const;

/**
 * A request as our own pages send it: with the gateway's origin in `Origin`, unless the caller set
 * Origin or Referer itself. The gateway refuses writes that carry the session cookie without one
 * (ADR 0004), and a browser always sends it; only an absolute URL elsewhere (a presigned bucket
 * upload) is left as given.
 */
export function asOurPage(gatewayUrl: string, path: string, init: RequestInit = {}): [string, RequestInit] {
  if (/^https?:/.test(path)) return [path, init];
  const headers = new Headers(init.headers);
  if (!headers.has('origin') && !headers.has('referer')) headers.set('origin', new URL(gatewayUrl).origin);
  return [`${gatewayUrl}${path}`, { ...init, headers }];
}

export type IdentityClient = ReturnType<typeof createGrpcClient<identityV1.IdentityServiceClient>>;

export interface Platform {
  identity: IdentityApp;
  submissions: SubmissionsApp;
  admin: AdminApp;
  campaigns: CampaignsApp;
  social: SocialApp;
  /** Postgres on social's database. */
  socialDb: pg.Pool;
  feed: FeedApp;
  rewards: RewardsApp;
  /** Postgres on rewards' database. */
  rewardsDb: pg.Pool;
  /** The weekly payout run as its scheduled job runs it, at `now`. */
  runPayouts(now: Date): Promise<PayoutRunResult>;
  /** Rewards' release of held payouts (ADR 0032) at `now`, as its quarter-hourly job runs it. */
  releaseHolds(now: Date): ReturnType<typeof releaseHolds>;
  /** Postgres on feed's database (the read models are in schema rm). */
  feedDb: pg.Pool;
  /** Postgres on admin's database (the audit log). */
  adminDb: pg.Pool;
  /** Postgres on campaigns' database. */
  campaignsDb: pg.Pool;
  /** API keys and webhook endpoints (ADR 0053). */
  developer: DeveloperApp;
  /** Postgres on developer's database. */
  developerDb: pg.Pool;
  /** Present when started with `{ mediaWorker: true }`. */
  mediaWorker: MediaWorkerApp | undefined;
  /** Present when started with `{ metricsWorker: true }`: reads post metrics from {@link xApi}. */
  metricsWorker: MetricsWorkerApp | undefined;
  /** Present when started with `{ webhookWorker: true }`: sends developer's webhook deliveries. */
  webhookWorker: WebhookWorkerApp | undefined;
  /**
   * The stand-in for X's API v2 post lookup every platform has (the metrics worker's X); it makes up a
   * post for any id it is not told about, so approved posts have metrics without setup.
   */
  xApi: XApiStandIn;
  /** The stand-in for X's oEmbed endpoint the gateway's GET /api/twitter/oembed asks (nothing here calls the real X). */
  xOembed: XOembedStandIn;
  /** The SMTP server identity mails to (verification and reset links): a real one, in the test's process. */
  mail: MailServer;
  gateway: GatewayApp;
  /** The gateway's base URL. */
  url: string;
  /** identity's gRPC address, for a second gateway. */
  identityGrpcUrl: string;
  names: ReturnType<typeof isolatedNames>;
  storageRoot: string;
  db: pg.Pool;
  /** Postgres on submissions' database. */
  submissionsDb: pg.Pool;
  identityClient: IdentityClient;
  /** `SELECT count(*)` over identity's database. */
  count(sql: string, params?: unknown[]): Promise<number>;
  /** Stored objects under a storage folder (sidecars left out). */
  storedFiles(folder: string): Promise<string[]>;
  /** Another gateway replica over the same identity, Redis prefix and storage. */
  startGateway(overrides?: GatewayConfigOverrides): Promise<GatewayApp>;
  /** Another media worker on the platform's queue, NATS stream and storage (closed by stop()). */
  startMediaWorker(): Promise<MediaWorkerApp>;
  stop(): Promise<void>;
}

/** Every start at once; when one fails, the others that started are closed again and its error thrown. */
async function allOrClose<T extends readonly unknown[]>(starts: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
  for (const r of settled) {
    if (r.status === 'fulfilled') await (r.value as { close?: () => Promise<void> }).close?.().catch(() => undefined);
  }
  throw failed.reason;
}

export interface PlatformOptions {
  /** Start a media worker on the run's queue too, so uploaded videos get processed (ffmpeg). */
  mediaWorker?: boolean;
  /**
   * Start a metrics worker on the run's queue too, reading X from the platform's stand-in; submissions
   * then looks for due posts every second instead of every minute.
   */
  metricsWorker?: boolean;
  /**
   * Start a webhook worker on the run's queue too, sending developer's deliveries; endpoints may then be on
   * this machine (WEBHOOK_ALLOW_LOOPBACK for developer and the worker).
   */
  webhookWorker?: boolean;
}

/**
 * `gatewayOverrides` apply to the gateway only; `sharedOverrides` to every service alike
 * (e.g. STORAGE_DRIVER=s3 and its S3_* variables, which all must agree on).
 */
export async function startPlatform(
  gatewayOverrides: GatewayConfigOverrides = {},
  sharedOverrides: Record<string, string> = {},
  options: PlatformOptions = {},
): Promise<Platform> {
  const infra = testInfra();
  const names = isolatedNames('e2e');
  const storageRoot = await mkdtemp(join(tmpdir(), 'clipit-e2e-storage-'));
  const submissionsDatabase = `${names.database}_submissions`;
  const adminDatabase = `${names.database}_admin`;
  const campaignsDatabase = `${names.database}_campaigns`;
  const socialDatabase = `${names.database}_social`;
  const feedDatabase = `${names.database}_feed`;
  const rewardsDatabase = `${names.database}_rewards`;
  const developerDatabase = `${names.database}_developer`;
  // Every database a copy of its service's migrated template, all at once.
  const [
    databaseUrl,
    submissionsDatabaseUrl,
    adminDatabaseUrl,
    campaignsDatabaseUrl,
    socialDatabaseUrl,
    feedDatabaseUrl,
    rewardsDatabaseUrl,
    developerDatabaseUrl,
  ] = await Promise.all([
    createTestDatabase(names.database, identityService),
    createTestDatabase(submissionsDatabase, submissionsService),
    createTestDatabase(adminDatabase, adminService),
    createTestDatabase(campaignsDatabase, campaignsService),
    createTestDatabase(socialDatabase, socialService),
    createTestDatabase(feedDatabase, feedService),
    createTestDatabase(rewardsDatabase, rewardsService),
    createTestDatabase(developerDatabase, developerService),
  ]);
  const [
    grpcPort,
    httpPort,
    submissionsGrpcPort,
    submissionsHttpPort,
    adminGrpcPort,
    adminHttpPort,
    campaignsGrpcPort,
    campaignsHttpPort,
    socialGrpcPort,
    socialHttpPort,
    feedGrpcPort,
    feedHttpPort,
    rewardsGrpcPort,
    rewardsHttpPort,
    developerGrpcPort,
    developerHttpPort,
  ] = (await freePorts(16)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];

  // What every backend service of this platform shares: the run's NATS stream, Redis prefix and storage folder.
  const backend = {
    ...isolatedServiceEnv(names, storageRoot),
    MEDIA_PUBLIC_BASE_URL: '/media',
    LOG_LEVEL: 'warn',
    ...sharedOverrides,
  };
  const identityGrpcUrl = `127.0.0.1:${grpcPort}`;
  const mail = await startMailServer();
  // The services start side by side: none waits for another at start-up (a caller's client only reports
  // readiness, and every service makes the event streams if they are missing).
  const [xApi, xOembed, identity, submissions, campaigns, social, feed, rewards, admin, developer] = await allOrClose([
    startXApiStandIn({ generate: true }),
    startXOembedStandIn(),
    bootstrapIdentity({
      IDENTITY_DATABASE_URL: databaseUrl,
      IDENTITY_GRPC_PORT: grpcPort,
      IDENTITY_HTTP_PORT: httpPort,
      IDENTITY_BIND_HOST: '127.0.0.1',
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      ...mail.smtpEnv,
      MAIL_DELIVERY_INTERVAL_MS: 200,
      ...backend,
    }),
    bootstrapSubmissions({
      SUBMISSIONS_DATABASE_URL: submissionsDatabaseUrl,
      SUBMISSIONS_GRPC_PORT: submissionsGrpcPort,
      SUBMISSIONS_HTTP_PORT: submissionsHttpPort,
      SUBMISSIONS_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityGrpcUrl,
      ...(options.metricsWorker ? { METRICS_SCHEDULER_INTERVAL_SECONDS: 1 } : {}),
      ...backend,
    }),
    bootstrapCampaigns({
      CAMPAIGNS_DATABASE_URL: campaignsDatabaseUrl,
      CAMPAIGNS_GRPC_PORT: campaignsGrpcPort,
      CAMPAIGNS_HTTP_PORT: campaignsHttpPort,
      CAMPAIGNS_BIND_HOST: '127.0.0.1',
      ...backend,
    }),
    bootstrapSocial({
      SOCIAL_DATABASE_URL: socialDatabaseUrl,
      SOCIAL_GRPC_PORT: socialGrpcPort,
      SOCIAL_HTTP_PORT: socialHttpPort,
      SOCIAL_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityGrpcUrl,
      ...backend,
    }),
    bootstrapFeed({
      FEED_DATABASE_URL: feedDatabaseUrl,
      FEED_GRPC_PORT: feedGrpcPort,
      FEED_HTTP_PORT: feedHttpPort,
      FEED_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityGrpcUrl,
      ...backend,
    }),
    bootstrapRewards({
      REWARDS_DATABASE_URL: rewardsDatabaseUrl,
      REWARDS_GRPC_PORT: rewardsGrpcPort,
      REWARDS_HTTP_PORT: rewardsHttpPort,
      REWARDS_BIND_HOST: '127.0.0.1',
      IDENTITY_GRPC_URL: identityGrpcUrl,
      // Tiers are data (ADR 0025): a spec that changes a requirement sees it at the next recompute.
      REWARDS_TABLES_CACHE_MS: 0,
      ...backend,
    }),
    bootstrapAdmin({
      ADMIN_DATABASE_URL: adminDatabaseUrl,
      ADMIN_GRPC_PORT: adminGrpcPort,
      ADMIN_HTTP_PORT: adminHttpPort,
      ADMIN_BIND_HOST: '127.0.0.1',
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      IDENTITY_GRPC_URL: identityGrpcUrl,
      SUBMISSIONS_GRPC_URL: `127.0.0.1:${submissionsGrpcPort}`,
      CAMPAIGNS_GRPC_URL: `127.0.0.1:${campaignsGrpcPort}`,
      REWARDS_GRPC_URL: `127.0.0.1:${rewardsGrpcPort}`,
      // The readiness admin samples into system_metrics: this platform's services (the gateway's port is not known yet).
      ADMIN_HEALTH_TARGETS: Object.entries({
        identity: httpPort,
        submissions: submissionsHttpPort,
        campaigns: campaignsHttpPort,
        social: socialHttpPort,
        feed: feedHttpPort,
        rewards: rewardsHttpPort,
        admin: adminHttpPort,
      })
        .map(([name, port]) => `${name}=http://127.0.0.1:${port}`)
        .join(','),
      ...backend,
    }),
    bootstrapDeveloper({
      DEVELOPER_DATABASE_URL: developerDatabaseUrl,
      DEVELOPER_GRPC_PORT: developerGrpcPort,
      DEVELOPER_HTTP_PORT: developerHttpPort,
      DEVELOPER_BIND_HOST: '127.0.0.1',
      ...(options.webhookWorker ? { WEBHOOK_ALLOW_LOOPBACK: 'true' } : {}),
      ...backend,
    }),
  ]);
  const mediaWorkers: MediaWorkerApp[] = [];
  const startMediaWorker = async () => {
    const worker = await bootstrapMediaWorker({
      MEDIA_WORKER_HTTP_PORT: (await freePorts(1))[0]!,
      MEDIA_WORKER_BIND_HOST: '127.0.0.1',
      MEDIA_WORKER_CONCURRENCY: 1,
      MEDIA_WORKER_DRAIN_SECONDS: 0,
      ...backend,
    });
    mediaWorkers.push(worker);
    return worker;
  };
  const mediaWorker = options.mediaWorker ? await startMediaWorker() : undefined;
  const metricsWorker = options.metricsWorker
    ? await bootstrapMetricsWorker({
        METRICS_WORKER_HTTP_PORT: (await freePorts(1))[0]!,
        METRICS_WORKER_BIND_HOST: '127.0.0.1',
        METRICS_WORKER_DRAIN_SECONDS: 0,
        X_API_BASE_URL: xApi.url,
        X_API_BEARER_TOKEN: xApi.bearerToken,
        ...backend,
      })
    : undefined;
  const webhookWorker = options.webhookWorker
    ? await bootstrapWebhookWorker({
        WEBHOOK_WORKER_HTTP_PORT: (await freePorts(1))[0]!,
        WEBHOOK_WORKER_BIND_HOST: '127.0.0.1',
        WEBHOOK_WORKER_DRAIN_SECONDS: 0,
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        ...backend,
      })
    : undefined;
  const gateways: GatewayApp[] = [];
  const startGateway = async (overrides: GatewayConfigOverrides = {}) => {
    const gateway = await bootstrapGateway({
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: 0,
      IDENTITY_GRPC_URL: identityGrpcUrl,
      SUBMISSIONS_GRPC_URL: `127.0.0.1:${submissionsGrpcPort}`,
      ADMIN_GRPC_URL: `127.0.0.1:${adminGrpcPort}`,
      CAMPAIGNS_GRPC_URL: `127.0.0.1:${campaignsGrpcPort}`,
      SOCIAL_GRPC_URL: `127.0.0.1:${socialGrpcPort}`,
      FEED_GRPC_URL: `127.0.0.1:${feedGrpcPort}`,
      REWARDS_GRPC_URL: `127.0.0.1:${rewardsGrpcPort}`,
      DEVELOPER_GRPC_URL: `127.0.0.1:${developerGrpcPort}`,
      NATS_URL: infra.natsUrl,
      EVENTS_STREAM: names.stream,
      EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      REDIS_URL: infra.redisUrl,
      REDIS_KEY_PREFIX: names.redisKeyPrefix,
      STORAGE_DRIVER: 'fs',
      STORAGE_FS_ROOT: storageRoot,
      LOG_LEVEL: 'warn',
      OEMBED_URL: xOembed.url,
      ...WEB_BUILDS,
      ...sharedOverrides,
      ...gatewayOverrides,
      ...overrides,
    });
    gateways.push(gateway);
    return gateway;
  };
  const gateway = await startGateway();

  // A look into each service's database: one connection, opened at the first query and closed after a
  // second unused, so three platforms side by side (npm test) keep PostgreSQL's 100 connections for the
  // services and no test holds seven idle ones for its whole length.
  // The server may end an idle one (a database dropped WITH (FORCE), an administrator's terminate): pg's pool
  // then drops it and emits 'error', which without a listener is thrown and fails whatever test runs at that
  // moment (CI failed so once, in admin.e2e). The next query opens a new connection, or fails on its own.
  const lookInto = (connectionString: string) => {
    const pool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 1000 });
    pool.on('error', () => undefined);
    return pool;
  };
  const db = lookInto(databaseUrl);
  const submissionsDb = lookInto(submissionsDatabaseUrl);
  const adminDb = lookInto(adminDatabaseUrl);
  const campaignsDb = lookInto(campaignsDatabaseUrl);
  const socialDb = lookInto(socialDatabaseUrl);
  const feedDb = lookInto(feedDatabaseUrl);
  const rewardsDb = lookInto(rewardsDatabaseUrl);
  const developerDb = lookInto(developerDatabaseUrl);
  const identityClient = createGrpcClient<identityV1.IdentityServiceClient>({
    url: identityGrpcUrl,
    packageName: identityV1.IDENTITY_V1_PACKAGE_NAME,
    serviceName: identityV1.IDENTITY_SERVICE_NAME,
    protoFile: protoFile('identity'),
    deadlineMs: 15_000,
  });

  return {
    identity,
    submissions,
    admin,
    campaigns,
    social,
    socialDb,
    feed,
    feedDb,
    rewards,
    rewardsDb,
    runPayouts: (now) => runPayouts(rewards, now),
    releaseHolds: (now) => releaseHolds(rewards, now),
    adminDb,
    campaignsDb,
    developer,
    developerDb,
    mediaWorker,
    metricsWorker,
    webhookWorker,
    xApi,
    xOembed,
    mail,
    gateway,
    url: gateway.httpUrl,
    identityGrpcUrl,
    names,
    storageRoot,
    db,
    submissionsDb,
    identityClient,
    async count(sql, params = []) {
      const { rows } = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
      return rows[0]!.n;
    },
    async storedFiles(folder) {
      try {
        return (await readdir(join(storageRoot, folder))).filter((f) => !f.endsWith('.meta'));
      } catch {
        return [];
      }
    },
    startGateway,
    startMediaWorker,
    async stop() {
      for (const g of gateways.reverse()) await g.close();
      identityClient.close();
      for (const w of mediaWorkers) await w.close();
      await metricsWorker?.close();
      await webhookWorker?.close();
      await admin.close();
      await campaigns.close();
      await social.close();
      await feed.close();
      await rewards.close();
      await developer.close();
      await submissions.close();
      await identity.close();
      await db.end();
      await submissionsDb.end();
      await adminDb.end();
      await campaignsDb.end();
      await socialDb.end();
      await feedDb.end();
      await rewardsDb.end();
      await developerDb.end();
      await dropTestDatabases(
        names.database,
        submissionsDatabase,
        adminDatabase,
        campaignsDatabase,
        socialDatabase,
        feedDatabase,
        rewardsDatabase,
        developerDatabase,
      );
      const nc = await connectNats(infra.natsUrl, 'e2e-cleanup');
      await deleteEventStreams(nc, names.stream);
      await nc.close();
      const redis = new Redis(infra.redisUrl);
      await deleteKeysWithPrefix(redis, names.redisKeyPrefix);
      redis.disconnect();
      await rm(storageRoot, { recursive: true, force: true });
      await xApi.close();
      await xOembed.close();
      await mail.close();
    },
  };
}

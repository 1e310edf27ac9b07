import 'reflect-metadata';
import { identityV1, protoFile, submissionsV1 } from '@clipit/contracts';
import {
  closeInOrder,
  connectEventBus,
  createGrpcClient,
  createLogger,
  EventConsumer,
  grpcServerOptions,
  HandlerRegistry,
  initMetrics,
  NestPinoLogger,
  openServiceDatabase,
  OutboxRelay,
  withOverrides,
  type HealthCheck,
  type NatsConnection,
} from '@clipit/service-kit';
import { openStorage } from '@clipit/storage';
import { NestFactory } from '@nestjs/core';
import type { GrpcOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { SubmissionsModule } from './app.module.js';
import { loadSubmissionsConfig, type SubmissionsConfig, type SubmissionsConfigVariable } from './config.js';
import { submissionsEntities, submissionsMigrations } from './database.js';
import { createBullMediaQueue } from './media-queue.js';
import type { IdentityPort, MediaQueuePort } from './services/ports.js';
import { SubmissionsService } from './services/submissions.service.js';

/** Variables to set over the environment's, e.g. a test database and free ports. */
export type SubmissionsConfigOverrides = Partial<Record<SubmissionsConfigVariable, string | number | boolean>>;

export interface SubmissionsApp {
  app: NestFastifyApplication;
  config: SubmissionsConfig;
  logger: Logger;
  grpcPort: number;
  httpPort: number;
  /** The service's commands, for tests that drive it without gRPC (e.g. the sweeper). */
  service: SubmissionsService;
  /** Stops taking calls, lets running calls finish, stops the consumer, relay and sweeper, then closes connections. */
  close(): Promise<void>;
}

const SERVICE = 'submissions';

/** The events submissions consumes: the media worker's verdicts on uploaded videos. */
export const SUBMISSIONS_SUBSCRIPTIONS = ['media.processed', 'media.failed'] as const;

/**
 * Starts submissions: Postgres (migrated under the advisory lock when DB_MIGRATE_ON_BOOT), NATS with
 * the event streams, the media queue on Redis, identity's gRPC client, the gRPC server
 * (submissions.v1.SubmissionsService), the HTTP server (/health/live, /health/ready, /metrics), the
 * outbox relay, the consumer of media events and the sweeper of expired uploads.
 */
export async function bootstrapSubmissions(overrides: SubmissionsConfigOverrides = {}): Promise<SubmissionsApp> {
  const config = loadSubmissionsConfig(withOverrides(overrides));
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  initMetrics(SERVICE);

  let dataSource: DataSource | undefined;
  let nc: NatsConnection | undefined;
  let app: NestFastifyApplication | undefined;
  let relay: OutboxRelay | undefined;
  let consumer: EventConsumer | undefined;
  let mediaQueue: (MediaQueuePort & { healthCheck: HealthCheck }) | undefined;
  let identity: (IdentityPort & { close(): void }) | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const shutdown = () => {
    clearInterval(sweepTimer);
    const [a, c, r, q, i, n, d] = [app, consumer, relay, mediaQueue, identity, nc, dataSource];
    return closeInOrder(
      [
        ['servers', a && (() => a.close())],
        ['sweeper', () => sweeping ?? Promise.resolve()],
        ['event consumer', c && (() => c.stop())],
        ['outbox relay', r && (() => r.stop())],
        ['media queue', q && (() => q.close())],
        ['identity client', i && (async () => i.close())],
        ['nats', n && (() => n.drain())],
        ['database', d && (() => d.destroy())],
      ],
      logger,
    );
  };

  try {
    dataSource = await openServiceDatabase({
      url: config.SUBMISSIONS_DATABASE_URL,
      urlVariable: 'SUBMISSIONS_DATABASE_URL',
      entities: submissionsEntities,
      migrations: submissionsMigrations,
      poolSize: config.SUBMISSIONS_DB_POOL_SIZE,
      migrate: config.DB_MIGRATE_ON_BOOT,
      logger,
    });
    const names = { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX };
    nc = await connectEventBus(config.NATS_URL, SERVICE, names);
    const storage = await openStorage(config);
    mediaQueue = await createBullMediaQueue(config);
    identity = createGrpcClient<identityV1.IdentityServiceClient>({
      url: config.IDENTITY_GRPC_URL,
      packageName: identityV1.IDENTITY_V1_PACKAGE_NAME,
      serviceName: identityV1.IDENTITY_SERVICE_NAME,
      protoFile: protoFile('identity'),
    });

    app = await NestFactory.create<NestFastifyApplication>(
      SubmissionsModule.forRoot({
        config,
        logger,
        dataSource,
        nc,
        storage,
        identity,
        mediaQueue,
        extraHealthChecks: [mediaQueue.healthCheck],
      }),
      new FastifyAdapter(),
      { logger: new NestPinoLogger(logger), abortOnError: false },
    );
    const grpc = grpcServerOptions({
      packageName: submissionsV1.SUBMISSIONS_V1_PACKAGE_NAME,
      protoFile: protoFile(SERVICE),
      port: config.SUBMISSIONS_GRPC_PORT,
      host: config.SUBMISSIONS_BIND_HOST,
    });
    app.connectMicroservice<GrpcOptions>(grpc);
    await app.startAllMicroservices();
    await app.listen({ port: config.SUBMISSIONS_HTTP_PORT, host: config.SUBMISSIONS_BIND_HOST });
    const service = app.get(SubmissionsService);

    relay = new OutboxRelay({ dataSource, databaseUrl: config.SUBMISSIONS_DATABASE_URL, nc, stream: config.EVENTS_STREAM, logger });
    await relay.start();
    consumer = new EventConsumer({
      name: SERVICE,
      nc,
      names,
      dataSource,
      logger,
      subscriptions: SUBMISSIONS_SUBSCRIPTIONS,
      registry: new HandlerRegistry()
        .on('media.processed', (event, tx) => service.onMediaProcessed(event.data, tx))
        .on('media.failed', (event, tx) => service.onMediaFailed(event.data, tx)),
    });
    await consumer.start();

    const sweep = () => {
      sweeping ??= service
        .sweepExpiredUploads()
        .catch((err: unknown) => logger.warn({ err }, 'sweeping expired uploads failed'))
        .finally(() => (sweeping = undefined));
    };
    sweepTimer = setInterval(sweep, config.UPLOAD_SWEEP_INTERVAL_SECONDS * 1000);
    sweepTimer.unref();

    logger.info({ grpcPort: config.SUBMISSIONS_GRPC_PORT, httpPort: config.SUBMISSIONS_HTTP_PORT }, 'submissions ready');
    let closing: Promise<void> | undefined;
    return {
      app,
      config,
      logger,
      grpcPort: config.SUBMISSIONS_GRPC_PORT,
      httpPort: config.SUBMISSIONS_HTTP_PORT,
      service,
      close: () => (closing ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

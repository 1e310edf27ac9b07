import 'reflect-metadata';
import { identityV1, protoFile } from '@clipit/contracts';
import {
  closeInOrder,
  connectEventBus,
  createLogger,
  grpcServerOptions,
  initMetrics,
  NestPinoLogger,
  openServiceDatabase,
  OutboxRelay,
  withOverrides,
  type NatsConnection,
} from '@clipit/service-kit';
import { openStorage } from '@clipit/storage';
import { NestFactory } from '@nestjs/core';
import type { GrpcOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { IdentityModule } from './app.module.js';
import { loadIdentityConfig, type IdentityConfig, type IdentityConfigVariable } from './config.js';
import { identityEntities, identityMigrations } from './database.js';

/** Variables to set over the environment's, e.g. a test database and free ports. */
export type IdentityConfigOverrides = Partial<Record<IdentityConfigVariable, string | number | boolean>>;

export interface IdentityApp {
  app: NestFastifyApplication;
  config: IdentityConfig;
  logger: Logger;
  grpcPort: number;
  httpPort: number;
  /** Stops taking calls, lets running calls finish, stops the relay, then closes NATS and Postgres. */
  close(): Promise<void>;
}

const SERVICE = 'identity';

/**
 * Starts identity: Postgres (migrated under the advisory lock when DB_MIGRATE_ON_BOOT), NATS with
 * the event streams, the gRPC server (identity.v1.IdentityService), the HTTP server (/health/live,
 * /health/ready, /metrics) and the outbox relay. Used by main.ts and by tests, which pass free ports.
 */
export async function bootstrapIdentity(overrides: IdentityConfigOverrides = {}): Promise<IdentityApp> {
  const config = loadIdentityConfig(withOverrides(overrides));
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  initMetrics(SERVICE);

  // Opened in this order, closed in the reverse: servers first (running calls finish), then the
  // relay that still needs the database and NATS, then NATS, then the pool.
  let dataSource: DataSource | undefined;
  let nc: NatsConnection | undefined;
  let app: NestFastifyApplication | undefined;
  let relay: OutboxRelay | undefined;
  const shutdown = () => {
    const [a, r, n, d] = [app, relay, nc, dataSource];
    return closeInOrder(
      [
        ['servers', a && (() => a.close())],
        ['outbox relay', r && (() => r.stop())],
        ['nats', n && (() => n.drain())],
        ['database', d && (() => d.destroy())],
      ],
      logger,
    );
  };

  try {
    dataSource = await openServiceDatabase({
      url: config.IDENTITY_DATABASE_URL,
      urlVariable: 'IDENTITY_DATABASE_URL',
      entities: identityEntities,
      migrations: identityMigrations,
      poolSize: config.IDENTITY_DB_POOL_SIZE,
      migrate: config.DB_MIGRATE_ON_BOOT,
      logger,
    });
    nc = await connectEventBus(config.NATS_URL, SERVICE, { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX });
    const storage = await openStorage(config);
    app = await NestFactory.create<NestFastifyApplication>(
      IdentityModule.forRoot({ config, logger, dataSource, nc, storage }),
      new FastifyAdapter(),
      { logger: new NestPinoLogger(logger), abortOnError: false },
    );
    const grpc = grpcServerOptions({
      packageName: identityV1.IDENTITY_V1_PACKAGE_NAME,
      protoFile: protoFile(SERVICE),
      port: config.IDENTITY_GRPC_PORT,
      host: config.IDENTITY_BIND_HOST,
    });
    app.connectMicroservice<GrpcOptions>(grpc);
    await app.startAllMicroservices();
    await app.listen({ port: config.IDENTITY_HTTP_PORT, host: config.IDENTITY_BIND_HOST });

    relay = new OutboxRelay({ dataSource, databaseUrl: config.IDENTITY_DATABASE_URL, nc, stream: config.EVENTS_STREAM, logger });
    await relay.start();

    logger.info({ grpcPort: config.IDENTITY_GRPC_PORT, httpPort: config.IDENTITY_HTTP_PORT }, 'identity ready');
    let closing: Promise<void> | undefined;
    return {
      app,
      config,
      logger,
      grpcPort: config.IDENTITY_GRPC_PORT,
      httpPort: config.IDENTITY_HTTP_PORT,
      close: () => (closing ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

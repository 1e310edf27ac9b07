import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { protoFile, type EventEnvelope, type EventType, type GrpcContract } from '@clipit/contracts';
import { nameSpanByRoute } from '@clipit/telemetry';
import { Global, Module, type DynamicModule, type InjectionToken, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { GrpcOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { EventConsumer } from '../bus/consumer.js';
import { INBOX_WAITER, InboxWaiter } from '../bus/inbox-waiter.js';
import { HandlerRegistry, type EventHandler } from '../bus/handlers.js';
import type { NatsConnection } from '../bus/jetstream.js';
import { Outbox } from '../bus/outbox.js';
import { OutboxRelay } from '../bus/relay.js';
import { loadConfig, type SharedConfig } from '../config/config.js';
import type { DatabaseOptions } from '../database/database.js';
import { TransactionRunner } from '../database/transactions.js';
import { grpcServerOptions } from '../grpc/server.js';
import { natsCheck, postgresCheck } from '../health/checks.js';
import { HEALTH_CHECKS, HealthController, type HealthCheck } from '../health/health.js';
import { createLogger, NestPinoLogger } from '../logging/logger.js';
import { initMetrics, MetricsController, serviceInfo } from '../metrics/metrics.js';
import { startIdleHeapRelease } from '../process/idle-heap.js';
import { closeInOrder, connectEventBus, openServiceDatabase, withOverrides, type ShutdownStep } from '../process/startup.js';
import { openGrpcClient, type GrpcClientDefinition } from './clients.js';
import type { ConfigOf, ConfigOverrides } from './service-config.js';
import { CONFIG, LOGGER, NATS_CONNECTION, SERVICE_INFO, type ServiceInfo } from './tokens.js';

/** What start-up code sees: the configuration, the logger, and what was opened or provided before it. */
export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  /** A resource opened earlier (while opening resources), or any provider of the running service. */
  get<T>(token: InjectionToken<T>): T;
}

/**
 * Something a service opens before Nest starts and closes after it stopped (storage, a queue, a Redis
 * connection, a checked tool): provided under `token`, closed in the reverse order of opening, and its
 * health checks join readiness.
 */
export interface ServiceResource<C> {
  name: string;
  token: InjectionToken;
  open(ctx: ServiceContext<C>): unknown;
  close?(value: never): unknown;
  health?(value: never): HealthCheck[];
}

/** Declares a resource with its value's type carried through to `close` and `health`. */
export function resource<C, T>(
  name: string,
  token: InjectionToken,
  open: (ctx: ServiceContext<C>) => T | Promise<T>,
  more: { close?: (value: T) => unknown; health?: (value: T) => HealthCheck[] } = {},
): ServiceResource<C> {
  return { name, token, open, ...(more as Pick<ServiceResource<C>, 'close' | 'health'>) };
}

/** Work a service runs beside its servers (a queue worker, a timer): started last, stopped first. */
export interface ServiceWorker<C> {
  name: string;
  start(ctx: ServiceContext<C>): Promise<RunningWorker>;
}

export interface RunningWorker {
  /** Stops taking new work and lets the running work finish. */
  stop(): Promise<unknown>;
  health?: HealthCheck[];
}

/**
 * A timer that runs `run` every interval, one run at a time (a run still going when the next is due
 * is not doubled), logging failures; stopping waits for the run under way.
 */
export function every<C>(
  name: string,
  intervalMs: (config: C) => number,
  run: (ctx: ServiceContext<C>) => Promise<unknown>,
): ServiceWorker<C> {
  return {
    name,
    start: async (ctx) => {
      let running: Promise<unknown> | undefined;
      const timer = setInterval(() => {
        running ??= run(ctx)
          .catch((err: unknown) => ctx.logger.warn({ err }, `${name} failed`))
          .finally(() => (running = undefined));
      }, intervalMs(ctx.config));
      timer.unref();
      return {
        stop: async () => {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}

/** The events a service consumes: one handler per type, typed by the event's data. */
export type EventHandlerTable = { [K in EventType]?: EventHandler<K> };

export interface ServiceDefinition<S extends z.ZodRawShape> {
  /** The service's name: logs, metrics, the NATS connection and the durable consumer carry it. */
  name: string;
  /** The version it was built from: `packageVersion(import.meta.url)` in its app.ts. Logged, in /metrics, provided as SERVICE_INFO. */
  version: string;
  /**
   * Prefix of the kit's variables (`<P>_HTTP_PORT`, `<P>_BIND_HOST`, `<P>_GRPC_PORT`, `<P>_DATABASE_URL`,
   * `<P>_DB_POOL_SIZE`); by default the name in capitals, `-` as `_` (media-worker → MEDIA_WORKER).
   */
  envPrefix?: string;
  /** Every variable the service reads (see `serverConfigShape`, `databaseConfigShape`, `sharedConfigShape`). */
  config: S;
  /**
   * Why a valid configuration must still not start, or undefined when it may (development secrets or a
   * test's cheap password hash under NODE_ENV=production). Asked before anything opens: no database is
   * migrated, no server listens.
   */
  startProblem?: (config: ConfigOf<S>) => string | undefined;
  /** The service's Nest module: its controllers, application services and repositories. */
  module: Type | DynamicModule;
  /** Its own Postgres database: migrated at start (under a lock), with the outbox relay publishing its events. */
  database?: Pick<DatabaseOptions, 'entities' | 'migrations'>;
  /** NATS with the event streams; on whenever there is a database (the relay) or events to consume. */
  bus?: boolean;
  /**
   * Whether NATS away fails readiness. Default: reported with a database (events wait in the outbox),
   * required without one. A service that only reads events for a side feature (the gateway's live
   * stream) reports it, so a NATS outage does not take it out of traffic.
   */
  busReadiness?: 'required' | 'reported';
  /** The gRPC server on `<P>_GRPC_PORT`, serving this contract. */
  grpc?: GrpcContract;
  /** Other services it calls: created, provided, closed and added to readiness. */
  clients?: ReadonlyArray<GrpcClientDefinition<ConfigOf<S>>>;
  resources?: ReadonlyArray<ServiceResource<ConfigOf<S>>>;
  /** The events it consumes, applied once each through the inbox; the keys are its subscriptions. */
  events?: (ctx: ServiceContext<ConfigOf<S>>) => EventHandlerTable;
  /**
   * Runs after a consumed event's transaction committed, before its ack (once per event applied, not
   * for a duplicate): tell others that what they read changed (the feed tells every gateway to drop
   * its cached reads). Must not throw and should not wait long; the ack waits for it.
   */
  afterEvent?: (ctx: ServiceContext<ConfigOf<S>>) => (event: EventEnvelope) => void | Promise<void>;
  workers?: ReadonlyArray<ServiceWorker<ConfigOf<S>>>;
  http?: {
    /** Variables holding the HTTP port and bind address, when not `<P>_HTTP_PORT` and `<P>_BIND_HOST`. */
    portVariable?: string;
    hostVariable?: string;
    adapter?: (config: ConfigOf<S>) => ConstructorParameters<typeof FastifyAdapter>[0];
    /** Nest's own body parser (off when the service installs its own). */
    bodyParser?: boolean;
    /** Plugins, hooks and global filters, before the server listens. */
    configure?: (app: NestFastifyApplication, ctx: ServiceContext<ConfigOf<S>>) => unknown;
  };
}

/**
 * The version in the package.json beside a service's folder, read from a module of it
 * (`packageVersion(import.meta.url)` in src/app.ts, which runs as dist/app.js: both sit one level below it).
 */
export function packageVersion(moduleUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error(`no version in the package.json next to ${moduleUrl}`);
  return pkg.version;
}

/** A running service, as `main.ts` and tests see it. */
export interface ServiceApp<C> {
  app: NestFastifyApplication;
  config: C;
  logger: Logger;
  httpPort: number;
  /** http://host:port of the HTTP server (127.0.0.1 when bound to every interface). */
  httpUrl: string;
  /** The gRPC server's port (0 for a service without one). */
  grpcPort: number;
  get<T>(token: InjectionToken<T>): T;
  /** Stops work and servers, lets what runs finish, then closes connections in order. Idempotent. */
  close(): Promise<void>;
}

/**
 * Types a definition by its configuration shape, given first so that every callback in the definition
 * sees the typed configuration, and `bootstrapService(def, overrides)` checks the overrides' names.
 */
export function defineService<S extends z.ZodRawShape>(config: S, definition: Omit<ServiceDefinition<S>, 'config'>): ServiceDefinition<S> {
  return { ...definition, config };
}

@Global()
@Module({})
class ServiceKitModule {}

@Module({})
class ServiceRootModule {}

/** A service's after-event hook, its failures logged: the event is applied either way and is acked. */
function afterEventHook(hook: (event: EventEnvelope) => void | Promise<void>, logger: Logger): (event: EventEnvelope) => Promise<void> {
  return async (event) => {
    try {
      await hook(event);
    } catch (err) {
      logger.warn({ err, eventId: event.id, type: event.type }, 'after-event hook failed');
    }
  };
}

function variable<C>(config: C, name: string): unknown {
  const value = (config as Record<string, unknown>)[name];
  if (value === undefined) throw new Error(`the service's config shape has no ${name} (see serverConfigShape / databaseConfigShape)`);
  return value;
}

/**
 * Starts a service from its definition: configuration (environment with overrides), JSON logger and
 * metrics, its database (migrated), NATS with the event streams, its resources and gRPC clients, the
 * Nest application with health and metrics, the gRPC server, the HTTP server, the outbox relay, the
 * event consumer, then its workers. On failure, what was opened is closed again and the error thrown.
 *
 * Shutdown runs the other way: workers stop taking work, servers stop taking calls (running calls
 * finish), then the consumer, the relay, resources, clients, NATS and the database pool.
 */
export async function bootstrapService<S extends z.ZodRawShape>(
  def: ServiceDefinition<S>,
  overrides: ConfigOverrides<S> = {},
): Promise<ServiceApp<ConfigOf<S>>> {
  const config = loadConfig(def.config, withOverrides(overrides));
  const problem = def.startProblem?.(config);
  if (problem) throw new Error(`refusing to start: ${problem}`);
  const logger = createLogger(def.name, (config as { LOG_LEVEL?: Parameters<typeof createLogger>[1] }).LOG_LEVEL);
  initMetrics(def.name);
  serviceInfo.set({ version: def.version }, 1);
  const info: ServiceInfo = { name: def.name, version: def.version };
  const prefix = def.envPrefix ?? def.name.toUpperCase().replaceAll('-', '_');
  const cfg = config as Record<string, unknown>;

  const opened = new Map<InjectionToken, unknown>();
  let app: NestFastifyApplication | undefined;
  const ctx: ServiceContext<ConfigOf<S>> = {
    config,
    logger,
    get: <T>(token: InjectionToken<T>): T => {
      if (opened.has(token)) return opened.get(token) as T;
      if (!app) throw new Error(`${String(token)} is not available before the service has started`);
      return app.get(token, { strict: false });
    },
  };

  // Filled as things open; shutdown runs the steps in this order, each skipped if it never opened.
  const steps = {
    workers: [] as ShutdownStep[],
    servers: undefined as ShutdownStep | undefined,
    consumer: undefined as ShutdownStep | undefined,
    relay: undefined as ShutdownStep | undefined,
    resources: [] as ShutdownStep[],
    clients: [] as ShutdownStep[],
    nats: undefined as ShutdownStep | undefined,
    database: undefined as ShutdownStep | undefined,
  };
  const shutdown = () =>
    closeInOrder(
      [
        ...[...steps.workers].reverse(),
        ...[steps.servers, steps.consumer, steps.relay].filter((s): s is ShutdownStep => s !== undefined),
        ...[...steps.resources].reverse(),
        ...steps.clients,
        ...[steps.nats, steps.database].filter((s): s is ShutdownStep => s !== undefined),
      ],
      logger,
    );

  try {
    const checks: HealthCheck[] = [];
    const providers: Provider[] = [
      { provide: CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: SERVICE_INFO, useValue: info },
      { provide: HEALTH_CHECKS, useValue: checks },
    ];

    let dataSource: DataSource | undefined;
    if (def.database) {
      const urlVariable = `${prefix}_DATABASE_URL`;
      const url = variable(config, urlVariable) as string;
      dataSource = await openServiceDatabase({
        url,
        urlVariable,
        entities: def.database.entities,
        migrations: def.database.migrations,
        poolSize: variable(config, `${prefix}_DB_POOL_SIZE`) as number,
        poolIdleMs: variable(config, 'DB_POOL_IDLE_MS') as number,
        migrate: variable(config, 'DB_MIGRATE_ON_BOOT') as boolean,
        logger,
      });
      const ds = dataSource;
      // Injected by its class, which only a service with a database loads (openServiceDatabase did already).
      const { DataSource: DataSourceClass } = await import('typeorm');
      steps.database = ['database', () => ds.destroy()];
      checks.push(postgresCheck(ds));
      providers.push(
        { provide: DataSourceClass, useValue: ds },
        { provide: Outbox, useValue: new Outbox(cfg['EVENTS_SUBJECT_PREFIX'] as string) },
        { provide: TransactionRunner, useValue: new TransactionRunner(ds) },
      );
    }
    // Reads wait here for their writer's events (ADR 0043); a service consuming none has nothing to wait for.
    const inboxWaiter = dataSource && def.events ? new InboxWaiter({ dataSource, consumer: def.name }) : undefined;
    providers.push({ provide: INBOX_WAITER, useValue: inboxWaiter ?? null });

    const names = { stream: cfg['EVENTS_STREAM'] as string, subjectPrefix: cfg['EVENTS_SUBJECT_PREFIX'] as string };
    let nc: NatsConnection | undefined;
    if (def.bus ?? (def.database !== undefined || def.events !== undefined)) {
      const conn = await connectEventBus(variable(config, 'NATS_URL') as string, def.name, names, {
        replicas: cfg['EVENTS_STREAM_REPLICAS'] as number | undefined,
      });
      nc = conn;
      steps.nats = ['nats', () => conn.drain()];
      // With a database the service keeps its events in the outbox while NATS is away: reported, not required.
      checks.push(natsCheck(conn, def.busReadiness ? def.busReadiness === 'reported' : def.database !== undefined));
      providers.push({ provide: NATS_CONNECTION, useValue: conn });
    }

    for (const r of def.resources ?? []) {
      const value = await r.open(ctx);
      opened.set(r.token, value);
      if (r.close) steps.resources.push([r.name, async () => r.close!(value as never)]);
      checks.push(...(r.health?.(value as never) ?? []));
      providers.push({ provide: r.token, useValue: value });
    }

    for (const c of def.clients ?? []) {
      const client = openGrpcClient(c, config);
      opened.set(c.token, client);
      steps.clients.push([`${c.contract.proto} client`, async () => client.close()]);
      const probe = c.probe;
      checks.push({
        name: c.contract.proto,
        optional: c.readiness === 'reported',
        check: probe ? async () => void (await probe(client as never)) : () => client.ready(1500),
      });
      providers.push({ provide: c.token, useValue: client });
    }

    const kit: DynamicModule = {
      module: ServiceKitModule,
      global: true,
      providers,
      exports: providers.map((p) => (p as { provide: InjectionToken }).provide),
    };
    const adapter = new FastifyAdapter(def.http?.adapter?.(config));
    // The HTTP server span takes the route's name (`GET /v1/clips/:id`); a no-op when tracing is off.
    adapter.getInstance().addHook('onRequest', nameSpanByRoute);
    app = await NestFactory.create<NestFastifyApplication>(
      { module: ServiceRootModule, imports: [kit, def.module], controllers: [HealthController, MetricsController] },
      adapter,
      { logger: new NestPinoLogger(logger), abortOnError: false, bodyParser: def.http?.bodyParser ?? true },
    );
    const nest = app;
    steps.servers = ['servers', () => nest.close()];
    await def.http?.configure?.(app, ctx);

    let grpcPort = 0;
    const host = variable(config, def.http?.hostVariable ?? `${prefix}_BIND_HOST`) as string;
    if (def.grpc) {
      grpcPort = variable(config, `${prefix}_GRPC_PORT`) as number;
      const shared = config as Partial<SharedConfig>;
      app.connectMicroservice<GrpcOptions>(
        grpcServerOptions({
          packageName: def.grpc.packageName,
          protoFile: protoFile(def.grpc.proto),
          port: grpcPort,
          host,
          maxConnectionAgeMs: shared.GRPC_MAX_CONNECTION_AGE_MS,
          maxConnectionAgeGraceMs: shared.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
        }),
      );
      await app.startAllMicroservices();
    }
    await app.listen({ port: variable(config, def.http?.portVariable ?? `${prefix}_HTTP_PORT`) as number, host });
    const httpPort = (app.getHttpAdapter().getInstance().server.address() as AddressInfo).port;
    const httpHost = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
    const httpUrl = `http://${httpHost.includes(':') ? `[${httpHost}]` : httpHost}:${httpPort}`;

    if (dataSource && nc) {
      const relay = new OutboxRelay({
        dataSource,
        databaseUrl: variable(config, `${prefix}_DATABASE_URL`) as string,
        nc,
        stream: names.stream,
        logger,
      });
      await relay.start();
      steps.relay = ['outbox relay', () => relay.stop()];
    }

    if (def.events) {
      if (!dataSource || !nc) throw new Error(`${def.name} consumes events but has no database for its inbox`);
      const table = def.events(ctx);
      inboxWaiter?.consumes(Object.keys(table));
      const consumer = new EventConsumer({
        name: def.name,
        ackWaitMs: variable(config, 'BUS_ACK_WAIT_MS') as number,
        backoffMs: variable(config, 'BUS_RETRY_BACKOFF_MS') as number[],
        maxAttempts: variable(config, 'BUS_MAX_ATTEMPTS') as number,
        outageBackoffMaxMs: variable(config, 'BUS_OUTAGE_BACKOFF_MAX_MS') as number,
        nc,
        names,
        dataSource,
        logger,
        subscriptions: Object.keys(table) as EventType[],
        registry: new HandlerRegistry().addTable(table as Record<EventType, EventHandler<EventType>>, def.name),
        ...(def.afterEvent ? { afterCommit: afterEventHook(def.afterEvent(ctx), logger) } : {}),
        ...(inboxWaiter ? { onApplied: (id: string) => inboxWaiter.applied(id) } : {}),
      });
      await consumer.start();
      steps.consumer = ['event consumer', () => consumer.stop()];
    }

    for (const w of def.workers ?? []) {
      const running = await w.start(ctx);
      steps.workers.push([w.name, () => running.stop()]);
      checks.push(...(running.health ?? []));
    }

    // Memory a load left behind goes back once the service is quiet again (ADR 0046).
    const idleHeap = startIdleHeapRelease({}, (freedBytes) => logger.debug({ freedBytes }, 'idle: heap released'));
    steps.workers.push(['idle heap release', async () => idleHeap.stop()]);

    logger.info({ version: def.version, httpPort, ...(grpcPort ? { grpcPort } : {}) }, `${def.name} ready`);
    let closing: Promise<void> | undefined;
    return { app, config, logger, httpPort, httpUrl, grpcPort, get: ctx.get, close: () => (closing ??= shutdown()) };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

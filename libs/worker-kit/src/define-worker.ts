import {
  CONFIG,
  defineService,
  EventPublisher,
  NATS_CONNECTION,
  REDIS,
  redisResource,
  type ConfigOf,
  type HealthCheck,
  type NatsConnection,
  type RedisConnectionConfig,
  type ServiceDefinition,
  type ServiceResource,
} from '@clipit/service-kit';
import { Global, Module, type DynamicModule, type InjectionToken, type Type } from '@nestjs/common';
import type { z } from 'zod';
import { workerPrefix, workerSettings, type WorkerSettings } from './config.js';

/** The worker's budgets (WorkerSettings), read once from its `<P>_*` variables. */
export const WORKER_SETTINGS = Symbol('WORKER_SETTINGS');
/** The service kit's EventPublisher on the service's stream, waiting `<P>_PUBLISH_TIMEOUT_MS` for JetStream. */
export const WORKER_EVENTS = Symbol('WORKER_EVENTS');

/** What the kit starts and stops: a QueueWorker (or anything that takes jobs the same way). */
export interface JobTaker {
  start(): Promise<void>;
  isRunning(): boolean;
  close(drainMs: number): Promise<void>;
}

type SharedVariables = RedisConnectionConfig & { REDIS_KEY_PREFIX: string; EVENTS_STREAM: string; EVENTS_SUBJECT_PREFIX: string };

export interface WorkerDefinition<S extends z.ZodRawShape> {
  /** The worker's name (`media-worker`): logs, metrics, the NATS connection, the subjects it publishes on. */
  name: string;
  version: string;
  /** Why a valid configuration must still not start (see the service kit's `startProblem`). */
  startProblem?: ServiceDefinition<S>['startProblem'];
  /** What the worker opens before Nest starts (a checked tool, storage, a scratch folder); each joins readiness. */
  resources?: ReadonlyArray<ServiceResource<ConfigOf<S>>>;
  /** The provider of the worker's module that takes jobs (its QueueWorker class). */
  worker: InjectionToken<JobTaker>;
  /** The worker's Nest module: its job handler and its QueueWorker. WORKER_SETTINGS and WORKER_EVENTS are provided. */
  module: Type | DynamicModule;
}

@Global()
@Module({})
class WorkerKitModule {}

function workerKitModule(prefix: string): DynamicModule {
  return {
    module: WorkerKitModule,
    global: true,
    providers: [
      { provide: WORKER_SETTINGS, useFactory: (config: SharedVariables) => workerSettings(config, prefix), inject: [CONFIG] },
      {
        provide: WORKER_EVENTS,
        // No outbox here (no database): the job is the durable record. A decided outcome is kept in the job
        // before it is published, and a failed publication delays the job (KeptOutcome, QueueWorker).
        useFactory: (nc: NatsConnection, config: SharedVariables, settings: WorkerSettings) =>
          new EventPublisher({
            nc,
            names: { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX },
            timeoutMs: settings.publishTimeoutMs,
          }),
        inject: [NATS_CONNECTION, CONFIG, WORKER_SETTINGS],
      },
    ],
    exports: [WORKER_SETTINGS, WORKER_EVENTS],
  };
}

@Module({})
class WorkerRootModule {}

/**
 * A queue worker as a service of the kit's one start-up (ADR 0017, ADR 0034): NATS required for readiness
 * (a worker can only state outcomes through it), a Redis connection of its own in readiness (reported:
 * the queue's connection reconnects by itself), its resources, its Nest module with WORKER_SETTINGS and
 * WORKER_EVENTS, and the QueueWorker started last and stopped first, draining for `<P>_DRAIN_SECONDS`,
 * with a `worker` check that fails once it no longer takes jobs. The configuration shape holds
 * `sharedConfigShape` and `workerConfigShape(<P>, …)`, `<P>` being the name in capitals.
 */
export function defineWorker<S extends z.ZodRawShape>(config: S, definition: WorkerDefinition<S>): ServiceDefinition<S> {
  const prefix = workerPrefix(definition.name);
  return defineService(config, {
    name: definition.name,
    version: definition.version,
    ...(definition.startProblem ? { startProblem: definition.startProblem } : {}),
    bus: true,
    resources: [
      ...(definition.resources ?? []),
      // Its own small connection: readiness must not queue behind the worker's blocking reads.
      redisResource(REDIS, { enableOfflineQueue: false, tolerateOutage: true }) as unknown as ServiceResource<ConfigOf<S>>,
    ],
    workers: [
      {
        name: `${definition.name} queue worker`,
        start: async ({ get, config }) => {
          const worker = get(definition.worker);
          await worker.start();
          const taking: HealthCheck = {
            name: 'worker',
            check: async () => {
              if (!worker.isRunning()) throw new Error('not taking jobs');
            },
          };
          const { drainMs } = workerSettings(config as unknown as SharedVariables, prefix);
          return { stop: () => worker.close(drainMs), health: [taking] };
        },
      },
    ],
    module: { module: WorkerRootModule, imports: [workerKitModule(prefix), definition.module] },
  });
}

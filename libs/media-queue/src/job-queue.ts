import { Queue, type JobsOptions, type RedisOptions } from 'bullmq';
import { producerConnection, reportRedisOutages, type ConnectionLogger } from './connection.js';
import { traceAdds } from './traced-adds.js';

/** What BullMQ puts after the deployment's REDIS_KEY_PREFIX: keys are `<REDIS_KEY_PREFIX>bull:media:…`. */
const BULL_SUFFIX = 'bull';

/**
 * The one rule both ends of the media queue follow for its Redis keys: the deployment's
 * REDIS_KEY_PREFIX (`clipit:`) followed by `bull`, so the queue lives at `clipit:bull:media:*` and a
 * test run's prefix `clipit:<run>_<name>:` gives `clipit:<run>_<name>:bull:media:*`, which the test
 * teardown's sweep of `clipit:<run>_*` removes. BullMQ adds the `:` before the queue name.
 */
export function mediaQueuePrefix(redisKeyPrefix: string): string {
  if (redisKeyPrefix.endsWith(BULL_SUFFIX)) {
    // Guards against applying the rule twice (`clipit:bullbull`): callers pass REDIS_KEY_PREFIX itself.
    throw new Error(
      `mediaQueuePrefix wants the deployment's REDIS_KEY_PREFIX (e.g. "clipit:"), not a queue prefix; got ${JSON.stringify(redisKeyPrefix)}`,
    );
  }
  return `${redisKeyPrefix}${BULL_SUFFIX}`;
}

export interface JobQueueOptions {
  /** The queue's name (`media`, `metrics`, a generated worker's). */
  queue: string;
  /** Where Redis is: the service kit's redisConnectionOptions(config) (REDIS_URL, or its sentinels). */
  connection: RedisOptions;
  /** The deployment's REDIS_KEY_PREFIX (e.g. `clipit:`); the keys go under {@link mediaQueuePrefix} of it, as the worker's. */
  prefix: string;
  defaultJobOptions?: JobsOptions;
  /** Where a Redis outage is reported (once when it starts, once when it ends); the service's pino logger. */
  logger?: ConnectionLogger;
}

/**
 * A producer's handle on a queue of the platform, on the key rule every queue follows. Adding fails fast
 * when Redis is down instead of queueing commands in memory, and works again within about a second of
 * Redis answering (see connection.ts). Close it on shutdown.
 *
 * Under a traced request, `add` and `addBulk` are a `send <queue>` span whose context each job's data
 * carries, so the worker's run joins the trace (ADR 0054; see traced-adds.ts). A job id added again adds
 * nothing, so the first add's context stays.
 */
export function createJobQueue<D, N extends string = string>(opts: JobQueueOptions): Queue<D, unknown, N> {
  const queue = new Queue<D, unknown, N>(opts.queue, {
    connection: producerConnection(opts.connection),
    prefix: mediaQueuePrefix(opts.prefix),
    ...(opts.defaultJobOptions ? { defaultJobOptions: opts.defaultJobOptions } : {}),
  });
  reportRedisOutages(queue, opts.logger, `${opts.queue} queue`);
  traceAdds(queue);
  return queue;
}

/** How many jobs a queue holds, by state: `depth` counts those waiting to be taken (waiting and prioritized). */
export interface QueueCounts {
  depth: number;
  waiting: number;
  prioritized: number;
  active: number;
  delayed: number;
  failed: number;
}

export interface QueueReader {
  /** The queue's counts now; rejects when Redis does not answer. */
  counts(): Promise<QueueCounts>;
  close(): Promise<void>;
}

/**
 * A read-only handle on a queue of the platform, on the same key rule as its producers and workers: it
 * counts jobs and never writes (BullMQ's queue meta update is skipped), failing fast while Redis is down.
 */
export function openQueueReader(opts: Omit<JobQueueOptions, 'defaultJobOptions'>): QueueReader {
  const queue = new Queue(opts.queue, {
    connection: producerConnection(opts.connection),
    prefix: mediaQueuePrefix(opts.prefix),
    skipMetasUpdate: true,
  });
  reportRedisOutages(queue, opts.logger, `${opts.queue} queue reader`);
  return {
    counts: async () => {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      const n = (state: string) => c[state] ?? 0;
      return {
        depth: n('waiting') + n('prioritized'),
        waiting: n('waiting'),
        prioritized: n('prioritized'),
        active: n('active'),
        delayed: n('delayed'),
        failed: n('failed'),
      };
    },
    close: () => queue.close(),
  };
}

/** The readiness check a producer reports its queue's connection with: optional, so an outage does not take it out of traffic. */
export interface QueueConnectionCheck {
  name: string;
  optional: true;
  check(): Promise<void>;
}

/**
 * A producer's queue once it has reached Redis, with what every producer does with it: `healthCheck`
 * (`name`, reported: BullMQ's own connection is up; it reconnects by itself within about a second of Redis
 * answering) and `close()` (when Redis is unreachable, QUIT fails and BullMQ's client would keep
 * reconnecting: its connection is dropped instead, and the failure thrown). Rejects, with the queue
 * closed, when Redis does not answer at start.
 */
export async function readyProducerQueue<D, N extends string>(
  queue: Queue<D, unknown, N>,
  name: string,
): Promise<{ healthCheck: QueueConnectionCheck; close(): Promise<void> }> {
  try {
    await queue.waitUntilReady();
  } catch (err) {
    await queue.close().catch(() => undefined);
    throw err;
  }
  return {
    healthCheck: {
      name,
      optional: true,
      check: async () => {
        const client = await queue.getBackend().client;
        if (client.status !== 'ready') throw new Error(`the ${queue.name} queue's connection is ${client.status}`);
      },
    },
    close: async () => {
      try {
        await queue.close();
      } catch (err) {
        (await queue.getBackend().client).disconnect();
        throw err;
      }
    },
  };
}

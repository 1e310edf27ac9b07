import { createMetricsQueue, enqueueRefreshMetrics, readyProducerQueue, type ConnectionLogger } from '@clipit/media-queue';
import { redisConnectionOptions, type HealthCheck, type RedisConnectionConfig } from '@clipit/service-kit';
import type { SubmissionsConfig } from './config.js';
import type { MetricsQueuePort } from './ports.js';

/**
 * The metrics queue as submissions uses it: the producer end of @clipit/media-queue's `metrics` queue
 * (its key prefix rule, job options, job id = batch id). Resolves once Redis answers.
 *
 * Its readiness check is reported, not required: only the scheduler's background rounds use it (they
 * try again next round), so an outage must not take the service's calls out of traffic.
 */
export async function createBullMetricsQueue(
  config: RedisConnectionConfig & Pick<SubmissionsConfig, 'REDIS_KEY_PREFIX'>,
  logger?: ConnectionLogger,
): Promise<MetricsQueuePort & { healthCheck: HealthCheck }> {
  const queue = createMetricsQueue({ connection: redisConnectionOptions(config), prefix: config.REDIS_KEY_PREFIX, logger });
  const ready = await readyProducerQueue(queue, 'metrics-queue');
  return {
    ...ready,
    enqueue: async (job) => {
      await enqueueRefreshMetrics(queue, job);
    },
  };
}

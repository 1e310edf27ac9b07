import { createJobQueue, mediaQueuePrefix, redisRetryStrategy, reportRedisOutages } from '@clipit/media-queue';
import { redisConnectionOptions, type ServiceWorker } from '@clipit/service-kit';
import { Worker, type Job } from 'bullmq';
import type { RewardsConfig } from '../config.js';
import { DashboardNotices } from '../services/dashboard-notices.service.js';
import { PayoutService } from '../services/payout.service.js';
import { StandingService } from '../services/standing.service.js';
import { StreamerMultiplierService } from '../services/streamer-multiplier.service.js';

/** The BullMQ queue of rewards' scheduled jobs; its keys are `<REDIS_KEY_PREFIX>bull:rewards:*`. */
export const REWARDS_QUEUE = 'rewards';
export const PAYOUT_JOB = 'weekly-payout';
export const RECOMPUTE_JOB = 'recompute-standings';
export const HOLD_RELEASE_JOB = 'release-holds';

/** A job that failed (the chain away, the database restarting) is tried again, 2 minutes later and more: a Solana transfer in flight has landed or expired by then. */
const JOB_OPTIONS = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 120_000 },
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 500 },
} as const;

/**
 * Rewards' scheduled jobs, as BullMQ job schedulers in UTC: the weekly payout (PAYOUT_CRON, Fridays
 * 12:00 by default), the daily recompute of every standing (RECOMPUTE_CRON; the inactivity penalty
 * starts with time alone) and the release of payouts held for a replaced wallet once their 72 hours are
 * over (HOLD_RELEASE_CRON, every 15 minutes; ADR 0032). Every replica declares the same schedulers (an
 * upsert: one schedule however many replicas) and works the queue; BullMQ hands each run to one of them,
 * and the payout run's own lock keeps a manual run, a scheduled one and a release apart.
 */
export const rewardsJobs: ServiceWorker<RewardsConfig> = {
  name: 'rewards jobs',
  start: async ({ config, logger, get }) => {
    if (!config.REWARDS_JOBS) return { stop: async () => undefined };
    const connection = { ...redisConnectionOptions(config), maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy };
    const prefix = mediaQueuePrefix(config.REDIS_KEY_PREFIX);
    // The platform's producer handle: the queues' key rule, outages reported once each way. Its schedulers
    // start no trace: their runs are work no request caused (ADR 0054).
    const queue = createJobQueue<object>({
      queue: REWARDS_QUEUE,
      connection: redisConnectionOptions(config),
      prefix: config.REDIS_KEY_PREFIX,
      logger,
    });
    await queue.upsertJobScheduler(PAYOUT_JOB, { pattern: config.PAYOUT_CRON, tz: 'UTC' }, { name: PAYOUT_JOB, opts: JOB_OPTIONS });
    await queue.upsertJobScheduler(
      RECOMPUTE_JOB,
      { pattern: config.RECOMPUTE_CRON, tz: 'UTC' },
      { name: RECOMPUTE_JOB, opts: JOB_OPTIONS },
    );
    await queue.upsertJobScheduler(
      HOLD_RELEASE_JOB,
      { pattern: config.HOLD_RELEASE_CRON, tz: 'UTC' },
      { name: HOLD_RELEASE_JOB, opts: JOB_OPTIONS },
    );
    const notices = get(DashboardNotices);
    const work = async (job: Job): Promise<unknown> => {
      if (job.name === PAYOUT_JOB) {
        const result = await get(PayoutService).run(new Date());
        // Another run held the lock: this one failed, and is tried again later.
        if (!result.ran) throw new Error('another payout run holds the lock');
        return result;
      }
      if (job.name === RECOMPUTE_JOB) {
        const now = new Date();
        // Standings, then streamers' applied multipliers (a step changed in the table reaches them within a day).
        return { ...(await get(StandingService).recomputeAll(now)), ...(await get(StreamerMultiplierService).reconcileAll(now)) };
      }
      // A payout run holding the lock releases nothing now; the next quarter-hour's release does.
      if (job.name === HOLD_RELEASE_JOB) return get(PayoutService).releaseHolds(new Date());
      throw new Error(`unknown rewards job ${job.name}`);
    };
    const worker = new Worker(
      REWARDS_QUEUE,
      async (job: Job) => {
        try {
          return await work(job);
        } finally {
          // Whatever a job committed, even one that failed half-way: anyone's dashboard may show it now (ADR 0045).
          notices.everyone(job.name);
        }
      },
      { connection, prefix, concurrency: 1 },
    );
    reportRedisOutages(worker, logger, 'rewards worker');
    worker.on('failed', (job, err) => logger.warn({ err, job: job?.name, attempt: job?.attemptsMade }, 'rewards job failed'));
    return {
      stop: async () => {
        await worker.close();
        await queue.close();
      },
    };
  },
};

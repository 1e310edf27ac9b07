import { METRICS_BATCH_MAX } from '@clipit/contracts';
import { CONFIG, LOGGER, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SubmissionsConfig } from '../config.js';
import { metricsBatchId } from '../domain/metrics-schedule.js';
import { metricsPostsQueued } from '../metrics.js';
import { METRICS_QUEUE, type MetricsQueuePort } from '../ports.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';

/**
 * The metrics scheduler (the timer in app.ts runs it every METRICS_SCHEDULER_INTERVAL_SECONDS; ADR 0029):
 * approved posts whose metrics are due go to the metrics queue in batches of at most 100, X's lookup size.
 *
 * Each batch is one transaction: the due rows are locked FOR UPDATE SKIP LOCKED, queued under a batch
 * id derived from them, and marked queued (due again only after METRICS_QUEUED_STALE_MINUTES, for a
 * lost job) before the locks go. Replicas running it at once pass over each other's rows, and once a
 * batch commits its posts are no longer due, so no post is queued twice. If Redis refuses the job the
 * transaction rolls back and the posts stay due; if the commit fails after the job was added, the next
 * round claims the same posts for the same due times, hence the same batch id, which BullMQ adds once.
 */
@Injectable()
export class MetricsSchedulerService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly metrics: MetricsRepository,
    @Inject(METRICS_QUEUE) private readonly queue: MetricsQueuePort,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Queues what is due by `now`, up to METRICS_SCHEDULER_MAX_BATCHES batches; answers how many posts. */
  async queueDue(now = new Date(), batchSize = METRICS_BATCH_MAX): Promise<number> {
    const retryAt = new Date(now.getTime() + this.config.METRICS_QUEUED_STALE_MINUTES * 60_000);
    let queued = 0;
    for (let round = 0; round < this.config.METRICS_SCHEDULER_MAX_BATCHES; round += 1) {
      const batch = await this.transactions.run(async (tx) => {
        const due = await this.metrics.lockDue(tx, now, batchSize);
        if (due.length === 0) return due;
        const batchId = metricsBatchId(due);
        await this.queue.enqueue({ batchId, posts: due.map(({ submissionId, externalId }) => ({ submissionId, externalId })) });
        await this.metrics.markQueued(
          tx,
          due.map((p) => p.submissionId),
          now,
          retryAt,
        );
        this.logger.debug({ batchId, posts: due.length }, 'queued a batch of posts for their metrics');
        return due;
      });
      queued += batch.length;
      metricsPostsQueued.inc(batch.length);
      if (batch.length < batchSize) break;
    }
    return queued;
  }
}

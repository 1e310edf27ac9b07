import type { MetricsFetchedV1, MetricsUpdatedV1, UserXLinkedV1 } from '@clipit/contracts';
import { CONFIG, LOGGER, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { metricsRules, type SubmissionsConfig } from '../config.js';
import { applyFoundPost, applyMissingPost, takesMetrics, type MetricsRules } from '../domain/post-metrics.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import type { MetricsHistoryEntity } from '../entities/metrics-history.entity.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';

/**
 * X's answers (`metrics.fetched`, one per batch the metrics worker ran) and identity's linked X
 * accounts (`user.x-linked`), applied once each through the inbox in the consumer's transaction
 * (ADR 0029). A batch's rows are locked together, in id order, so a moderation command on one waits;
 * its reads are written in a few statements, not a few per post.
 */
@Injectable()
export class PostMetricsService {
  private readonly rules: MetricsRules;

  constructor(
    private readonly metrics: MetricsRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.rules = metricsRules(config);
  }

  /**
   * For each post: found → counts, history point, verification, next due time, and `metrics.updated`
   * when what counts changed or the post was just verified; missing → the miss counted, the counts
   * kept. A post no longer approved, or read earlier than what is stored (a replay, an out-of-order
   * batch), is left as it is.
   */
  async onMetricsFetched(data: MetricsFetchedV1, tx: EntityManager): Promise<void> {
    const fetchedAt = new Date(data.fetchedAt);
    const submissions = await this.metrics.lockSubmissions(
      tx,
      data.posts.map((p) => p.submissionId),
    );
    const seen = new Set<string>();
    const taking = data.posts.filter((post) => {
      // A submission named twice in one batch is applied once.
      if (seen.has(post.submissionId)) return false;
      seen.add(post.submissionId);
      const submission = submissions.get(post.submissionId);
      const takes = submission !== undefined && takesMetrics(submission, post.externalId, fetchedAt);
      if (!takes)
        this.logger.debug(
          { submissionId: post.submissionId, batchId: data.batchId, status: submission?.status },
          'metrics for a post that is not approved or already read later: ignored',
        );
      return takes;
    });
    const unverified = taking.flatMap((post) => {
      const submission = submissions.get(post.submissionId)!;
      return post.outcome === 'found' && !submission.verifiedAt ? [submission.userId] : [];
    });
    const linked = await this.metrics.linkedXUserIds(tx, unverified);

    const changed: SubmissionEntity[] = [];
    const points: MetricsHistoryEntity[] = [];
    const updates: MetricsUpdatedV1[] = [];
    const now = new Date();
    for (const post of taking) {
      const submission = submissions.get(post.submissionId)!;
      changed.push(submission);
      if (post.outcome === 'missing') {
        applyMissingPost(submission, fetchedAt, this.rules);
        this.logger.info(
          {
            submissionId: submission.id,
            misses: submission.metricsMissingCount,
            reason: post.reason,
            scheduled: submission.metricsDueAt !== null,
          },
          'X did not find the post',
        );
        continue;
      }
      const applied = applyFoundPost(submission, post, fetchedAt, linked.get(submission.userId) ?? null, this.rules, now);
      const { views, likes, retweets, replies, quotes, bookmarks } = post.metrics;
      points.push({ submissionId: submission.id, fetchedAt, views, likes, retweets, replies, quotes, bookmarks });
      if (applied.verifiedNow) this.logger.info({ submissionId: submission.id }, 'post verified as the submitter’s');
      if (applied.publish)
        updates.push({ submission: toSnapshot(submission), previousViews: applied.previousViews, fetchedAt: data.fetchedAt });
    }
    // One statement each for the rows and the history, whatever the batch's size (up to 100 posts).
    await this.metrics.saveReads(tx, changed);
    await this.metrics.addHistory(tx, points);
    for (const update of updates) await this.outbox.append(tx, 'metrics.updated', update);
  }

  /** The user's linked X account: the next read of their unverified posts checks the author against it. */
  async onUserXLinked(data: UserXLinkedV1, tx: EntityManager): Promise<void> {
    await this.metrics.saveLinkedAccount(tx, data);
  }
}

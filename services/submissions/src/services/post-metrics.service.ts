import type { MetricsFetchedV1, UserXLinkedV1 } from '@clipit/contracts';
import { CONFIG, LOGGER, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { metricsRules, type SubmissionsConfig } from '../config.js';
import { applyFoundPost, applyMissingPost, takesMetrics, type MetricsRules } from '../domain/post-metrics.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/**
 * X's answers (`metrics.fetched`, one per batch the metrics worker ran) and identity's linked X
 * accounts (`user.x-linked`), applied once each through the inbox in the consumer's transaction
 * (ADR 0029). Each post's row is locked, in id order, so a moderation command on it waits.
 */
@Injectable()
export class PostMetricsService {
  private readonly rules: MetricsRules;

  constructor(
    private readonly repo: SubmissionRepository,
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
    const posts = [...data.posts].sort((a, b) => (a.submissionId < b.submissionId ? -1 : a.submissionId > b.submissionId ? 1 : 0));
    for (const post of posts) {
      const submission = await this.repo.lockById(tx, post.submissionId);
      if (!submission || !takesMetrics(submission, post.externalId, fetchedAt)) {
        this.logger.debug({ submissionId: post.submissionId, batchId: data.batchId, status: submission?.status }, 'metrics for a post that is not approved or already read later: ignored');
        continue;
      }
      if (post.outcome === 'missing') {
        applyMissingPost(submission, fetchedAt, this.rules);
        await this.repo.save(tx, submission);
        this.logger.info({ submissionId: submission.id, misses: submission.metricsMissingCount, reason: post.reason, scheduled: submission.metricsDueAt !== null }, 'X did not find the post');
        continue;
      }
      const linkedXUserId = submission.verifiedAt ? null : await this.metrics.linkedXUserId(tx, submission.userId);
      const applied = applyFoundPost(submission, post, fetchedAt, linkedXUserId, this.rules, new Date());
      await this.repo.save(tx, submission);
      await this.metrics.addHistory(tx, {
        submissionId: submission.id,
        fetchedAt,
        views: post.metrics.views,
        likes: post.metrics.likes,
        retweets: post.metrics.retweets,
        replies: post.metrics.replies,
        quotes: post.metrics.quotes,
        bookmarks: post.metrics.bookmarks,
      });
      if (applied.verifiedNow) this.logger.info({ submissionId: submission.id }, 'post verified as the submitter’s');
      if (applied.publish) {
        await this.outbox.append(tx, 'metrics.updated', { submission: toSnapshot(submission), previousViews: applied.previousViews, fetchedAt: data.fetchedAt });
      }
    }
  }

  /** The user's linked X account: the next read of their unverified posts checks the author against it. */
  async onUserXLinked(data: UserXLinkedV1, tx: EntityManager): Promise<void> {
    await this.metrics.saveLinkedAccount(tx, data);
  }
}

import type { MetricsFetchedV1, MetricsUpdatedV1, UserXLinkedV1 } from '@clipit/contracts';
import { CONFIG, LOGGER, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { metricsRules, type SubmissionsConfig } from '../config.js';
import { applyFoundPost, applyMissingPost, applyRisk, takesMetrics, type FoundPost, type MetricsRules } from '../domain/post-metrics.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import { assessViewRisk, isUnderReview, type RiskRead } from '../domain/view-risk.js';
import type { MetricsHistoryEntity } from '../entities/metrics-history.entity.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { EngagementNormsService } from './engagement-norms.service.js';

/**
 * X's answers (`metrics.fetched`, one per batch the metrics worker ran) and identity's linked X
 * accounts (`user.x-linked`), applied once each through the inbox in the consumer's transaction
 * (ADR 0029). A batch's rows are locked together, in id order, so a moderation command on one waits;
 * its reads are written in a few statements, not a few per post.
 */
@Injectable()
export class PostMetricsService {
  private readonly rules: MetricsRules;
  private readonly riskHoldThreshold: number;

  constructor(
    private readonly metrics: MetricsRepository,
    private readonly norms: EngagementNormsService,
    private readonly outbox: Outbox,
    @Inject(CONFIG) config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.rules = metricsRules(config);
    this.riskHoldThreshold = config.RISK_HOLD_THRESHOLD;
  }

  /**
   * For each post: found → counts, history point, verification, next due time, the view-risk score of its
   * history with this read (ADR 0049), and `metrics.updated` when what counts changed, the post was just
   * verified or its risk score moved; missing → the miss counted, the counts and score kept. A post no
   * longer approved, or read earlier than what is stored (a replay, an out-of-order batch), is left as it is.
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
    const applied: Array<{ submission: SubmissionEntity; post: FoundPost; publish: boolean; previousViews: number }> = [];
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
      const read = applyFoundPost(submission, post, fetchedAt, linked.get(submission.userId) ?? null, this.rules, now);
      const { views, likes, retweets, replies, quotes, bookmarks } = post.metrics;
      const videoViews = post.metrics.videoViews ?? null;
      points.push({ submissionId: submission.id, fetchedAt, views, likes, retweets, replies, quotes, bookmarks, videoViews });
      if (read.verifiedNow) this.logger.info({ submissionId: submission.id }, 'post verified as the submitter’s');
      applied.push({ submission, post, publish: read.publish, previousViews: read.previousViews });
    }
    const updates: MetricsUpdatedV1[] = [];
    if (applied.length > 0) {
      // The score is of the history as it stands with this read, in the same transaction that stores both.
      const history = await this.metrics.readsOf(
        tx,
        applied.map((a) => a.submission.id),
      );
      const norms = await this.norms.current(tx);
      for (const { submission, post, publish, previousViews } of applied) {
        const reads: RiskRead[] = [
          ...(history.get(submission.id) ?? []),
          { at: fetchedAt, ...post.metrics, videoViews: post.metrics.videoViews ?? null },
        ];
        const wasUnderReview = submission.riskScore !== null && isUnderReview(submission.riskScore, this.riskHoldThreshold);
        const assessment = assessViewRisk({ reads, publishedAt: submission.publishedAt, norms });
        const riskMoved = applyRisk(submission, assessment, now);
        const underReview = submission.riskScore !== null && isUnderReview(submission.riskScore, this.riskHoldThreshold);
        if (underReview !== wasUnderReview)
          this.logger.info(
            { submissionId: submission.id, riskScore: submission.riskScore, reasons: submission.riskReasons },
            underReview ? 'clip under review for its views' : 'clip no longer under review for its views',
          );
        if (publish || riskMoved)
          updates.push({ submission: toSnapshot(submission, this.riskHoldThreshold), previousViews, fetchedAt: data.fetchedAt });
      }
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

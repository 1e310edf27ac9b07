import type { submissionsV1 } from '@clipit/contracts';
import { notFound } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { historyPoints } from '../domain/post-metrics.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/** The owner's chart reads this many of the latest reads at most (about 3 months of a post's life at the schedule's pace). */
export const HISTORY_POINTS_MAX = 500;

/** A submission's metrics and their history, for its owner or an admin (ADR 0029). */
@Injectable()
export class MetricsHistoryService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly metrics: MetricsRepository,
  ) {}

  /** NOT_FOUND for anyone but the owner or an admin, exactly as for an unknown id: others cannot tell it exists. */
  async get(request: submissionsV1.GetMetricsHistoryRequest): Promise<submissionsV1.GetMetricsHistoryResponse> {
    // The history before the row: a read of X's metrics commits both at once, so a read that lands between
    // the two leaves the row newer than the points, never a point beside figures from before it.
    const rows = await this.metrics.latestHistory(request.submissionId, HISTORY_POINTS_MAX);
    const s = await this.repo.findById(request.submissionId);
    if (!s || (s.userId !== request.userId && !request.isAdmin)) throw notFound(messages.submissionNotFound);
    return {
      submissionId: s.id,
      views: s.views,
      likes: s.likes,
      retweets: s.retweets,
      replies: s.replies,
      quoteCount: s.quoteCount,
      bookmarkCount: s.bookmarkCount,
      verificationCode: s.verificationCode,
      ...(s.verifiedAt ? { verifiedAt: s.verifiedAt.toISOString() } : {}),
      ...(s.lastMetricsFetch ? { lastMetricsFetch: s.lastMetricsFetch.toISOString() } : {}),
      ...(s.publishedAt ? { publishedAt: s.publishedAt.toISOString() } : {}),
      points: historyPoints(rows),
    };
  }
}

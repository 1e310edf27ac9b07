import type { submissionsV1 } from '@clipit/contracts';
import { invalid, isUuid, notFound } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { messages } from '../domain/messages.js';
import { historyPoints } from '../domain/post-metrics.js';
import { MetricsRepository, type HistoryRead } from '../repositories/metrics.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/** The owner's chart reads this many of the latest reads at most (about 3 months of a post's life at the schedule's pace). */
export const HISTORY_POINTS_MAX = 500;
/** A streamer's read of the clips tagged with them (issue 37): this many of each clip's latest reads, for at most this many clips a call. */
export const TAGGED_HISTORY_POINTS = 100;
export const TAGGED_SUBMISSIONS_MAX = 100;

/**
 * A submission's metrics and their history, for its owner or an admin (ADR 0029); and the view histories of
 * the clips tagged with a streamer, for that streamer (issue 37).
 */
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

  /**
   * The view histories of those of `submissionIds` tagged with the streamer who asks, in the order asked:
   * another streamer's clips, untagged ones and unknown ids are left out alike, so none is told to exist.
   */
  async tagged(request: submissionsV1.GetTaggedViewHistoriesRequest): Promise<submissionsV1.TaggedViewHistories> {
    if (!isUuid(request.streamerId)) throw invalid(messages.invalidStreamerId);
    const ids = [...new Set((request.submissionIds ?? []).map((id) => id.toLowerCase()))];
    if (ids.length > TAGGED_SUBMISSIONS_MAX) throw invalid(messages.tooManySubmissionIds(TAGGED_SUBMISSIONS_MAX));
    const rows = await this.metrics.latestTaggedHistories(request.streamerId.toLowerCase(), ids, TAGGED_HISTORY_POINTS);
    const reads = new Map<string, HistoryRead[]>();
    for (const { submissionId, read } of rows) {
      const kept = reads.get(submissionId) ?? [];
      if (read) kept.push(read);
      reads.set(submissionId, kept);
    }
    return { histories: ids.filter((id) => reads.has(id)).map((id) => ({ submissionId: id, points: historyPoints(reads.get(id)!) })) };
  }
}

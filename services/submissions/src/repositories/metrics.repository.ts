import type { UserXLinkedV1 } from '@clipit/contracts';
import { isUuid } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DuePost } from '../domain/metrics-schedule.js';
import type { MeasuredNorms, RiskRead } from '../domain/view-risk.js';
import { MetricsHistoryEntity } from '../entities/metrics-history.entity.js';
import { SubmissionEntity } from '../entities/submission.entity.js';

/** One read of a post's counts, as a view history's point is made from. */
export interface HistoryRead {
  fetchedAt: Date;
  views: number;
  likes: number;
  retweets: number;
  replies: number;
}

/**
 * What post metrics keep beside the submission rows: the scheduler's claims on due posts, each read's
 * history, and the X accounts users linked. The scheduler's and history's reads are plain SQL on
 * their indexes (the due index, the history's primary key): they run over every approved post.
 */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` approved posts due by `now`, earliest first, locked FOR UPDATE SKIP LOCKED: rows
   * another replica's round holds are passed over, so two rounds never claim the same post. The lock
   * lasts until the caller's transaction ends, in which it marks them queued (`markQueued`).
   */
  async lockDue(tx: EntityManager, now: Date, limit: number): Promise<DuePost[]> {
    const rows = (await tx.query(
      `SELECT id, external_id, metrics_due_at FROM submissions
        WHERE status = 'approved' AND metrics_due_at IS NOT NULL AND metrics_due_at <= $1
        ORDER BY metrics_due_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [now, limit],
    )) as Array<{ id: string; external_id: string; metrics_due_at: Date }>;
    return rows.map((r) => ({ submissionId: r.id, externalId: r.external_id, dueAt: r.metrics_due_at }));
  }

  /** Queued at `now`; due again at `retryAt` only if their answer never comes (a lost job): applying one sets the real next time. */
  async markQueued(tx: EntityManager, ids: readonly string[], now: Date, retryAt: Date): Promise<void> {
    await tx.query(`UPDATE submissions SET metrics_queued_at = $2, metrics_due_at = $3 WHERE id = ANY($1::uuid[])`, [ids, now, retryAt]);
  }

  /**
   * The rows of a batch's submissions, locked until the transaction ends, in id order (so two batches
   * naming the same posts, and a moderation command, wait for each other instead of deadlocking).
   */
  async lockSubmissions(tx: EntityManager, ids: readonly string[]): Promise<Map<string, SubmissionEntity>> {
    const valid = [...new Set(ids.filter((id) => isUuid(id)))].sort();
    if (valid.length === 0) return new Map();
    const rows = await tx
      .getRepository(SubmissionEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.id IN (:...ids)', { ids: valid })
      .orderBy('s.id')
      .getMany();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Stores what reading X changed on these submissions (counts, publication time, raw object, the
   * post's state, verification, schedule, updatedAt) in one statement: a batch is 100 posts.
   */
  async saveReads(tx: EntityManager, rows: readonly SubmissionEntity[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <T>(pick: (s: SubmissionEntity) => T) => rows.map(pick);
    await tx.query(
      `UPDATE submissions s SET
          views = v.views, likes = v.likes, retweets = v.retweets, replies = v.replies,
          quote_count = v.quote_count, bookmark_count = v.bookmark_count,
          published_at = v.published_at, last_metrics_fetch = v.last_metrics_fetch, raw_metrics = v.raw_metrics,
          post_status = v.post_status, metrics_missing_count = v.metrics_missing_count,
          metrics_queued_at = v.metrics_queued_at, metrics_due_at = v.metrics_due_at,
          verified_at = v.verified_at, updated_at = v.updated_at, risk_score = v.risk_score, risk_reasons = v.risk_reasons
        FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
                    $8::timestamptz[], $9::timestamptz[], $10::jsonb[], $11::text[], $12::int[],
                    $13::timestamptz[], $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::int[], $18::jsonb[])
          AS v(id, views, likes, retweets, replies, quote_count, bookmark_count, published_at, last_metrics_fetch, raw_metrics,
               post_status, metrics_missing_count, metrics_queued_at, metrics_due_at, verified_at, updated_at, risk_score, risk_reasons)
       WHERE s.id = v.id`,
      [
        column((s) => s.id),
        column((s) => s.views),
        column((s) => s.likes),
        column((s) => s.retweets),
        column((s) => s.replies),
        column((s) => s.quoteCount),
        column((s) => s.bookmarkCount),
        column((s) => s.publishedAt),
        column((s) => s.lastMetricsFetch),
        column((s) => (s.rawMetrics === null ? null : JSON.stringify(s.rawMetrics))),
        column((s) => s.postStatus),
        column((s) => s.metricsMissingCount),
        column((s) => s.metricsQueuedAt),
        column((s) => s.metricsDueAt),
        column((s) => s.verifiedAt),
        column((s) => s.updatedAt),
        column((s) => s.riskScore),
        column((s) => (s.riskReasons === null ? null : JSON.stringify(s.riskReasons))),
      ],
    );
  }

  /** A batch's points, in one statement; a point stored already for the same instant (a replay) adds nothing. */
  async addHistory(tx: EntityManager, points: readonly MetricsHistoryEntity[]): Promise<void> {
    if (points.length === 0) return;
    await tx.query(
      `INSERT INTO submission_metrics_history (submission_id, fetched_at, views, likes, retweets, replies, quotes, bookmarks, video_views)
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[],
                            $9::bigint[])
       ON CONFLICT (submission_id, fetched_at) DO NOTHING`,
      [
        points.map((p) => p.submissionId),
        points.map((p) => p.fetchedAt),
        points.map((p) => p.views),
        points.map((p) => p.likes),
        points.map((p) => p.retweets),
        points.map((p) => p.replies),
        points.map((p) => p.quotes),
        points.map((p) => p.bookmarks),
        points.map((p) => p.videoViews),
      ],
    );
  }

  /**
   * Every stored read of these submissions, oldest first, for the view-risk score (ADR 0049): read through
   * the history's primary key. A post is read about 250 times in its first year, so a batch of 100 posts
   * reads at most some 25,000 small rows.
   */
  async readsOf(tx: EntityManager, submissionIds: readonly string[]): Promise<Map<string, RiskRead[]>> {
    const reads = new Map<string, RiskRead[]>();
    if (submissionIds.length === 0) return reads;
    const rows = (await tx.query(
      `SELECT submission_id, fetched_at, views, likes, retweets, replies, quotes, video_views
         FROM submission_metrics_history WHERE submission_id = ANY($1::uuid[])
        ORDER BY submission_id, fetched_at`,
      [[...new Set(submissionIds)]],
    )) as Array<{
      submission_id: string;
      fetched_at: Date;
      views: string;
      likes: string;
      retweets: string;
      replies: string;
      quotes: string;
      video_views: string | null;
    }>;
    for (const r of rows) {
      const list = reads.get(r.submission_id) ?? [];
      list.push({
        at: r.fetched_at,
        views: Number(r.views),
        likes: Number(r.likes),
        retweets: Number(r.retweets),
        replies: Number(r.replies),
        quotes: Number(r.quotes),
        videoViews: r.video_views === null ? null : Number(r.video_views),
      });
      reads.set(r.submission_id, list);
    }
    return reads;
  }

  /**
   * The platform's engagement norms (ADR 0049): the median of (likes + retweets + replies + quotes) / views
   * over approved, verified posts with views, by order of magnitude of views (the digits of the count less
   * one, as `viewsMagnitude` computes it), with how many posts each median is of. A scan of the approved
   * posts, run once per RISK_NORMS_CACHE_SECONDS per process.
   */
  async engagementNorms(tx: EntityManager): Promise<MeasuredNorms> {
    const rows = (await tx.query(
      `SELECT length(views::text) - 1 AS magnitude, count(*)::int AS clips,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY (likes + retweets + replies + quote_count)::float8 / views) AS rate
         FROM submissions
        WHERE status = 'approved' AND verified_at IS NOT NULL AND views > 0
        GROUP BY 1`,
    )) as Array<{ magnitude: number; clips: number; rate: number }>;
    return new Map(rows.map((r) => [Number(r.magnitude), { rate: Number(r.rate), clips: Number(r.clips) }]));
  }

  /** The latest `limit` points of a submission's history, newest first (read backwards through the primary key). */
  latestHistory(submissionId: string, limit: number): Promise<MetricsHistoryEntity[]> {
    if (!isUuid(submissionId)) return Promise.resolve([]);
    return this.dataSource.manager
      .getRepository(MetricsHistoryEntity)
      .createQueryBuilder('h')
      .where('h.submissionId = :submissionId', { submissionId })
      .orderBy('h.fetchedAt', 'DESC')
      .limit(limit)
      .getMany();
  }

  /**
   * The latest `limit` reads of each of `submissionIds` that is tagged with `streamerId`, newest first per
   * submission; a tagged submission without reads has one row with no read (`fetched_at` null), so the
   * caller can tell it from one not tagged. The streamer's rule is in this WHERE: nothing else is read.
   */
  async latestTaggedHistories(
    streamerId: string,
    submissionIds: readonly string[],
    limit: number,
  ): Promise<Array<{ submissionId: string; read: HistoryRead | null }>> {
    if (!isUuid(streamerId) || submissionIds.length === 0) return [];
    const rows = (await this.dataSource.query(
      `SELECT s.id, h.fetched_at, h.views, h.likes, h.retweets, h.replies FROM submissions s
       LEFT JOIN LATERAL (
         SELECT fetched_at, views, likes, retweets, replies FROM submission_metrics_history
         WHERE submission_id = s.id ORDER BY fetched_at DESC LIMIT $3
       ) h ON true
       WHERE s.id = ANY($1::uuid[]) AND s.streamer_id = $2
       ORDER BY s.id, h.fetched_at DESC`,
      [submissionIds.filter(isUuid), streamerId, limit],
    )) as Array<{ id: string; fetched_at: Date | null; views: string; likes: string; retweets: string; replies: string }>;
    return rows.map((r) => ({
      submissionId: r.id,
      read: r.fetched_at
        ? {
            fetchedAt: r.fetched_at,
            views: Number(r.views),
            likes: Number(r.likes),
            retweets: Number(r.retweets),
            replies: Number(r.replies),
          }
        : null,
    }));
  }

  /** The X user ids these users linked (users without one are absent). */
  async linkedXUserIds(tx: EntityManager, userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = (await tx.query('SELECT user_id, x_user_id FROM linked_x_accounts WHERE user_id = ANY($1::uuid[])', [
      [...new Set(userIds)],
    ])) as Array<{ user_id: string; x_user_id: string }>;
    return new Map(rows.map((r) => [r.user_id, r.x_user_id]));
  }

  /** Keeps the latest link of each user: an older event arriving late changes nothing. */
  async saveLinkedAccount(tx: EntityManager, link: UserXLinkedV1): Promise<void> {
    await tx.query(
      `INSERT INTO linked_x_accounts (user_id, x_user_id, x_username, linked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET x_user_id = excluded.x_user_id, x_username = excluded.x_username, linked_at = excluded.linked_at
       WHERE linked_x_accounts.linked_at <= excluded.linked_at`,
      [link.userId, link.xUserId, link.xUsername, link.linkedAt],
    );
  }
}

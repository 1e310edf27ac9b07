import { isUuid, type KeysetPosition } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, type EntityManager } from 'typeorm';
import type { QueueFilter, QueueFlag, QueuePosition } from '../domain/moderation-queue.js';
import { SubmissionEntity } from '../entities/submission.entity.js';
import { VideoUploadEntity } from '../entities/video-upload.entity.js';

/** The moderation queue's rank when every status is listed: pending first (the expression submissions_queue_idx indexes). */
const QUEUE_RANK = "(CASE WHEN s.status = 'pending' THEN 0 ELSE 1 END)";

/** What each flag of the moderation queue selects (QUEUE_FLAGS). */
const FLAG_CONDITIONS: Record<QueueFlag, string> = {
  matched: "jsonb_array_length(COALESCE(s.video_matches, '[]'::jsonb)) > 0",
  risky: 's.risk_score >= :riskThreshold',
  'failed-checks': `(s.guide_checks @> '[{"verdict": "warning"}]'::jsonb OR s.video_state = 'rejected')`,
};

/** Submissions and their uploads; every write takes the caller's transaction. */
@Injectable()
export class SubmissionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The entity is complete as built, so it is not refreshed from what Postgres returns (TypeORM would
   * write the defaulted bigint counts back as raw strings, past the column transformer).
   */
  async insert(tx: EntityManager, submission: SubmissionEntity): Promise<void> {
    await tx.createQueryBuilder().insert().into(SubmissionEntity).values(submission).updateEntity(false).execute();
  }

  async save(tx: EntityManager, submission: SubmissionEntity): Promise<void> {
    await tx.getRepository(SubmissionEntity).save(submission);
  }

  async findById(id: string, tx: EntityManager = this.dataSource.manager): Promise<SubmissionEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (await tx.getRepository(SubmissionEntity).findOneBy({ id })) ?? undefined;
  }

  /** The row, locked until the transaction ends: commands on one submission run one at a time. */
  async lockById(tx: EntityManager, id: string): Promise<SubmissionEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (
      (await tx
        .getRepository(SubmissionEntity)
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .where('s.id = :id', { id })
        .getOne()) ?? undefined
    );
  }

  /** A user's submissions, newest first: all, or `page.limit` strictly older than `page.before` (submissions_user_created_idx). */
  listByUser(userId: string, page?: { limit: number; before: KeysetPosition | undefined }): Promise<SubmissionEntity[]> {
    if (!isUuid(userId)) return Promise.resolve([]);
    const query = this.dataSource.manager.getRepository(SubmissionEntity).createQueryBuilder('s').where('s.userId = :userId', { userId });
    if (page?.before) query.andWhere('(s.created_at, s.id) < (:createdAt, :id)', { createdAt: page.before.createdAt, id: page.before.id });
    query.orderBy('s.createdAt', 'DESC').addOrderBy('s.id', 'DESC');
    return page ? query.limit(page.limit).getMany() : query.getMany();
  }

  /**
   * A page of the moderation queue (domain/moderation-queue.ts): the filter's submissions in the queue's
   * order, (rank, created_at DESC, id DESC), after `after`. `riskThreshold` is the score from which a clip's
   * view risk is under review (RISK_HOLD_THRESHOLD).
   */
  listQueue(filter: QueueFilter, riskThreshold: number, limit: number, after: QueuePosition | undefined): Promise<SubmissionEntity[]> {
    // One status: every row ranks 0 (rank 0 OR ... reads as the keyset condition alone).
    const rank = filter.status ? '0' : QUEUE_RANK;
    const query = this.dataSource.manager.getRepository(SubmissionEntity).createQueryBuilder('s');
    if (filter.status) query.andWhere('s.status = :status', { status: filter.status });
    if (filter.platform) query.andWhere('s.platform = :platform', { platform: filter.platform });
    if (filter.flags.length > 0)
      query.andWhere(
        new Brackets((any) => {
          for (const flag of filter.flags) any.orWhere(FLAG_CONDITIONS[flag], { riskThreshold });
        }),
      );
    if (after)
      query.andWhere(`(${rank} > :rank OR (${rank} = :rank AND (s.created_at, s.id) < (:createdAt, :id)))`, {
        rank: after.rank,
        createdAt: after.createdAt,
        id: after.id,
      });
    if (!filter.status) query.orderBy(QUEUE_RANK, 'ASC');
    return query.addOrderBy('s.created_at', 'DESC').addOrderBy('s.id', 'DESC').limit(limit).getMany();
  }

  /** The admin header's figures: every submission, and those created since `since`. */
  async counts(since: Date): Promise<{ total: number; createdSince: number }> {
    const row = await this.dataSource.manager
      .getRepository(SubmissionEntity)
      .createQueryBuilder('s')
      .select('count(*)', 'total')
      .addSelect('count(*) FILTER (WHERE s.created_at >= :since)', 'created_since')
      .setParameter('since', since)
      .getRawOne<{ total: string; created_since: string }>();
    return { total: Number(row?.total ?? 0), createdSince: Number(row?.created_since ?? 0) };
  }

  async insertUpload(tx: EntityManager, upload: VideoUploadEntity): Promise<void> {
    await tx.getRepository(VideoUploadEntity).insert(upload);
  }

  async saveUpload(tx: EntityManager, upload: VideoUploadEntity): Promise<void> {
    await tx.getRepository(VideoUploadEntity).save(upload);
  }

  async findUpload(id: string, tx: EntityManager = this.dataSource.manager): Promise<VideoUploadEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (await tx.getRepository(VideoUploadEntity).findOneBy({ id })) ?? undefined;
  }

  async lockUpload(tx: EntityManager, id: string): Promise<VideoUploadEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (
      (await tx
        .getRepository(VideoUploadEntity)
        .createQueryBuilder('u')
        .setLock('pessimistic_write')
        .where('u.id = :id', { id })
        .getOne()) ?? undefined
    );
  }

  /** Videos a user has had accepted (processing or processed) since `since`. */
  countAcceptedVideosSince(tx: EntityManager, userId: string, since: Date): Promise<number> {
    return tx
      .getRepository(VideoUploadEntity)
      .createQueryBuilder('u')
      .where('u.userId = :userId', { userId })
      .andWhere(`u.status IN ('processing', 'ready')`)
      .andWhere('u.finalizedAt >= :since', { since })
      .getCount();
  }

  /**
   * An upload and its submission, both locked FOR UPDATE in the one order every transaction here uses:
   * the submission first, then the upload (taking them the other way round in some code paths would let
   * two transactions wait on each other). Undefined when either is gone.
   */
  async lockUploadWithSubmission(
    tx: EntityManager,
    videoId: string,
  ): Promise<{ submission: SubmissionEntity; upload: VideoUploadEntity } | undefined> {
    const found = await this.findUpload(videoId, tx);
    if (!found) return undefined;
    const submission = await this.lockById(tx, found.submissionId);
    const upload = await this.lockUpload(tx, found.id);
    return submission && upload ? { submission, upload } : undefined;
  }

  /**
   * Uploads processing since before `finalizedBefore` (their verdict is late), oldest first; not locked:
   * the reconciler only re-drives their jobs, which is idempotent, and changes no row.
   */
  findStaleProcessingUploads(finalizedBefore: Date, limit: number): Promise<VideoUploadEntity[]> {
    return this.dataSource.manager
      .getRepository(VideoUploadEntity)
      .createQueryBuilder('u')
      .where(`u.status = 'processing'`)
      .andWhere('u.finalizedAt < :finalizedBefore', { finalizedBefore })
      .orderBy('u.finalizedAt', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Ids of uploads never finished before their URL expired, oldest first (not locked: see lockUploadWithSubmission). */
  async findExpiredUploadIds(tx: EntityManager, now: Date, limit: number): Promise<string[]> {
    const rows = await tx
      .getRepository(VideoUploadEntity)
      .createQueryBuilder('u')
      .select('u.id', 'id')
      .where(`u.status = 'awaiting-upload'`)
      .andWhere('u.expiresAt < :now', { now })
      .orderBy('u.expiresAt', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }
}

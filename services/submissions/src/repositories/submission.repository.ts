import { isUuid } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SubmissionEntity } from '../entities/submission.entity.js';
import { VideoUploadEntity } from '../entities/video-upload.entity.js';


/** Submissions and their uploads; every write takes the caller's transaction. */
@Injectable()
export class SubmissionRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

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
    return (await tx.getRepository(SubmissionEntity).createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOne()) ?? undefined;
  }

  /** A user's submissions, newest first. */
  listByUser(userId: string): Promise<SubmissionEntity[]> {
    if (!isUuid(userId)) return Promise.resolve([]);
    return this.dataSource.manager
      .getRepository(SubmissionEntity)
      .createQueryBuilder('s')
      .where('s.userId = :userId', { userId })
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
  }

  /** Every submission, newest first (the admin list). */
  listAll(limit: number): Promise<SubmissionEntity[]> {
    return this.dataSource.manager
      .getRepository(SubmissionEntity)
      .createQueryBuilder('s')
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(limit)
      .getMany();
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
    return (await tx.getRepository(VideoUploadEntity).createQueryBuilder('u').setLock('pessimistic_write').where('u.id = :id', { id }).getOne()) ?? undefined;
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

  /** Uploads never finished before their URL expired, oldest first, locked and skipped by other replicas. */
  lockExpiredUploads(tx: EntityManager, now: Date, limit: number): Promise<VideoUploadEntity[]> {
    return tx
      .getRepository(VideoUploadEntity)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where(`u.status = 'awaiting-upload'`)
      .andWhere('u.expiresAt < :now', { now })
      .orderBy('u.expiresAt', 'ASC')
      .limit(limit)
      .getMany();
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { ImageUploadEntity } from '../entities/image-upload.entity.js';

/** The only code that reads or writes the image_uploads table. */
@Injectable()
export class ImageUploadRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: EntityManager): Repository<ImageUploadEntity> {
    return (tx ?? this.dataSource.manager).getRepository(ImageUploadEntity);
  }

  async insert(upload: ImageUploadEntity): Promise<void> {
    await this.repo().insert(upload);
  }

  findById(id: string): Promise<ImageUploadEntity | null> {
    return this.repo().findOneBy({ id });
  }

  findByImageKey(imageKey: string): Promise<ImageUploadEntity | null> {
    return this.repo().findOneBy({ imageKey });
  }

  /** Locks the row until the transaction ends: a use, a refusal and the sweep never overlap. */
  lock(tx: EntityManager, id: string): Promise<ImageUploadEntity | null> {
    return this.repo(tx).createQueryBuilder('u').setLock('pessimistic_write').where('u.id = :id', { id }).getOne();
  }

  async update(tx: EntityManager | undefined, id: string, patch: Partial<ImageUploadEntity>): Promise<void> {
    await this.repo(tx).update({ id }, patch);
  }

  async delete(tx: EntityManager, id: string): Promise<void> {
    await this.repo(tx).delete({ id });
  }

  /** Uploads past their expiry that never became an image, oldest first. */
  async findExpiredUnusedIds(now: Date, limit: number): Promise<string[]> {
    const rows = await this.repo()
      .createQueryBuilder('u')
      .select('u.id', 'id')
      .where(`u.status <> 'used'`)
      .andWhere('u.expiresAt < :now', { now })
      .orderBy('u.expiresAt', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }
}

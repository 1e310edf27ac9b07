import { isUuid } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TokenEntity } from '../entities/token.entity.js';

@Injectable()
export class TokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, token: TokenEntity): Promise<void> {
    await tx.getRepository(TokenEntity).insert(token);
  }

  /** One token by id (undefined for an unknown id or one that is not a uuid). */
  async findById(id: string): Promise<TokenEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.dataSource.manager.getRepository(TokenEntity).findOneBy({ id })) ?? undefined;
  }

  /** One token by id, its row locked until the transaction ends (concurrent edits apply one after the other). */
  async findByIdForUpdate(tx: EntityManager, id: string): Promise<TokenEntity | undefined> {
    if (!isUuid(id)) return undefined;
    return (
      (await tx.getRepository(TokenEntity).createQueryBuilder('t').setLock('pessimistic_write').where('t.id = :id', { id }).getOne()) ??
      undefined
    );
  }

  async update(tx: EntityManager, id: string, patch: Partial<TokenEntity>): Promise<void> {
    await tx.getRepository(TokenEntity).update({ id }, patch);
  }

  /** Every token of one streamer, active or not, newest first. */
  listByStreamer(streamerId: string): Promise<TokenEntity[]> {
    return this.dataSource.manager
      .getRepository(TokenEntity)
      .createQueryBuilder('t')
      .where('t.streamerId = :streamerId', { streamerId })
      .orderBy('t.createdAt', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .getMany();
  }

  /** Active tokens (is_active = 'true'), newest first. */
  listActive(): Promise<TokenEntity[]> {
    return this.dataSource.manager
      .getRepository(TokenEntity)
      .createQueryBuilder('t')
      .where(`t.isActive = 'true'`)
      .orderBy('t.createdAt', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .getMany();
  }
}

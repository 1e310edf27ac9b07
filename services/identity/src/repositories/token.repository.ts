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

  /** Active tokens, newest first. */
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

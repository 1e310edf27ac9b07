import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TokenEntity } from '../entities/token.entity.js';

@Injectable()
export class TokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: EntityManager, token: TokenEntity): Promise<void> {
    await tx.getRepository(TokenEntity).insert(token);
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

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { UserEntity } from '../entities/user.entity.js';

/** The only code that reads or writes the users table. Handles compare case-insensitively. */
@Injectable()
export class UserRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx?: EntityManager): Repository<UserEntity> {
    return (tx ?? this.dataSource.manager).getRepository(UserEntity);
  }

  getById(id: string, tx?: EntityManager): Promise<UserEntity | null> {
    return this.repo(tx).findOneBy({ id });
  }

  /** The users with these ids (uuids only; unknown ones are simply absent). */
  getByIds(ids: readonly string[]): Promise<UserEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.repo()
      .createQueryBuilder('u')
      .where('u.id IN (:...ids)', { ids: [...ids] })
      .getMany();
  }

  /** Locks the row until the transaction ends, so concurrent edits apply one after the other. */
  getByIdForUpdate(tx: EntityManager, id: string): Promise<UserEntity | null> {
    return this.repo(tx).createQueryBuilder('u').setLock('pessimistic_write').where('u.id = :id', { id }).getOne();
  }

  /** A real account (never a placeholder) by handle. */
  findAccountByHandle(handle: string, tx?: EntityManager): Promise<UserEntity | null> {
    return this.repo(tx)
      .createQueryBuilder('u')
      .where('lower(u.twitterUsername) = lower(:handle)', { handle })
      .andWhere(`u.isPlaceholder = 'false'`)
      .getOne();
  }

  /** The account linked to this X user id (ADR 0028); the row stays locked until `tx` ends. */
  findByXUserIdForUpdate(tx: EntityManager, xUserId: string): Promise<UserEntity | null> {
    return this.repo(tx).createQueryBuilder('u').setLock('pessimistic_write').where('u.xUserId = :xUserId', { xUserId }).getOne();
  }

  findAccountByHandleAndEmail(handle: string, email: string): Promise<UserEntity | null> {
    return this.repo()
      .createQueryBuilder('u')
      .where('lower(u.twitterUsername) = lower(:handle)', { handle })
      .andWhere('u.email = :email', { email })
      .andWhere(`u.isPlaceholder = 'false'`)
      .getOne();
  }

  async accountHandleExists(handle: string): Promise<boolean> {
    return (await this.findAccountByHandle(handle)) !== null;
  }

  async emailExists(email: string): Promise<boolean> {
    return this.repo().existsBy({ email });
  }

  /** An unclaimed placeholder already holds this handle. */
  unclaimedPlaceholderHandleExists(handle: string): Promise<boolean> {
    return this.repo()
      .createQueryBuilder('u')
      .where('lower(u.twitterUsername) = lower(:handle)', { handle })
      .andWhere(`u.isPlaceholder = 'true'`)
      .andWhere('u.claimedBy IS NULL')
      .getExists();
  }

  /** With `tx`, the row stays locked until that transaction ends (a claim in progress). */
  findPlaceholderByClaimCode(claimCode: string, tx?: EntityManager): Promise<UserEntity | null> {
    const qb = this.repo(tx).createQueryBuilder('u').where('u.claimCode = :claimCode', { claimCode }).andWhere(`u.isPlaceholder = 'true'`);
    if (tx) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  async insert(tx: EntityManager, user: UserEntity): Promise<void> {
    await this.repo(tx).insert(user);
  }

  async update(tx: EntityManager, id: string, patch: Partial<UserEntity>): Promise<void> {
    await this.repo(tx).update({ id }, patch);
  }

  /** Streamers with accounts, plus placeholders nobody has claimed yet (a claimed one is replaced by its account). */
  listStreamers(): Promise<UserEntity[]> {
    return this.repo()
      .createQueryBuilder('u')
      .where(`u.role = 'streamer'`)
      .andWhere(`(u.isPlaceholder = 'false' OR u.claimedBy IS NULL)`)
      .orderBy('lower(coalesce(u.displayName, u.twitterUsername))', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
  }

  listPlaceholders(): Promise<UserEntity[]> {
    return this.repo()
      .createQueryBuilder('u')
      .where(`u.isPlaceholder = 'true'`)
      .orderBy('u.createdAt', 'DESC')
      .addOrderBy('u.id', 'DESC')
      .getMany();
  }
}

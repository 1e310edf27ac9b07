import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** Runs one command's writes (and its outbox events) in a single transaction. */
@Injectable()
export class DatabaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}

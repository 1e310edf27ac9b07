import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';

/** Runs one command's writes (and its outbox events) in a single transaction. */
@Injectable()
export class DatabaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}

/** The constraint a unique violation (SQLSTATE 23505) broke, or undefined for any other error. */
export function uniqueViolation(err: unknown): string | undefined {
  if (!(err instanceof QueryFailedError)) return undefined;
  const driverError = (err as QueryFailedError & { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' ? (driverError.constraint ?? 'unknown') : undefined;
}

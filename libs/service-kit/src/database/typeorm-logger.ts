import type { Logger as PinoLogger } from 'pino';
import type { Logger as TypeOrmLoggerInterface } from 'typeorm';

/**
 * TypeORM's messages as JSON lines through the service's pino logger. Query parameters are never
 * written: they hold password hashes, emails and session keys. A unique violation is usually a
 * handled race (the caller maps it to a conflict), so it is logged at debug, other failures at error.
 */
export class TypeOrmPinoLogger implements TypeOrmLoggerInterface {
  constructor(private readonly logger: PinoLogger) {}

  logQuery(query: string, _parameters?: unknown): void {
    this.logger.trace({ query }, 'query');
  }

  logQueryError(error: string | Error, query: string, _parameters?: unknown): void {
    const code = typeof error === 'object' ? (error as { code?: string }).code : undefined;
    const message = typeof error === 'string' ? error : error.message;
    const level = code === '23505' ? 'debug' : 'error';
    this.logger[level]({ query, code, error: message }, 'query failed');
  }

  logQuerySlow(time: number, query: string, _parameters?: unknown): void {
    this.logger.warn({ query, durationMs: time }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug({ context: 'schema' }, message);
  }

  logMigration(message: string): void {
    this.logger.info({ context: 'migration' }, message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    this.logger[level === 'warn' ? 'warn' : 'debug']({ context: 'typeorm' }, String(message));
  }
}

import { QueryFailedError } from 'typeorm';
import { uniqueViolation } from './database.js';

// database.ts no longer imports typeorm's classes (ADR 0046): it tells TypeORM's query errors by their name.
const driverError = (code: string, constraint?: string) => Object.assign(new Error('driver'), { code, constraint });

describe('uniqueViolation', () => {
  it('names the constraint of a unique violation TypeORM reports', () => {
    expect(uniqueViolation(new QueryFailedError('INSERT ...', [], driverError('23505', 'users_email_key')))).toBe('users_email_key');
    expect(uniqueViolation(new QueryFailedError('INSERT ...', [], driverError('23505')))).toBe('unknown');
  });

  it('is undefined for other query errors and for errors that are not TypeORM query errors', () => {
    expect(uniqueViolation(new QueryFailedError('INSERT ...', [], driverError('23503', 'fk')))).toBeUndefined();
    expect(uniqueViolation(driverError('23505', 'users_email_key'))).toBeUndefined();
    expect(uniqueViolation({ name: 'QueryFailedError', driverError: driverError('23505', 'x') })).toBeUndefined();
    expect(uniqueViolation(undefined)).toBeUndefined();
  });
});

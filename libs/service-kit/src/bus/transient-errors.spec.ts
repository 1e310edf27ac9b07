import { isTransientDatabaseError } from './transient-errors.js';

/** An error shaped like the ones pg and Node raise: a message and a code. */
function coded(code: string, message = 'boom'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isTransientDatabaseError', () => {
  it.each([
    ['08006', 'connection_failure'],
    ['08001', 'sqlclient_unable_to_establish_sqlconnection'],
    ['08P01', 'protocol_violation (class 08)'],
    ['57P01', 'admin_shutdown'],
    ['57P02', 'crash_shutdown'],
    ['57P03', 'cannot_connect_now'],
    ['53300', 'too_many_connections'],
    ['40001', 'serialization_failure'],
    ['40P01', 'deadlock_detected'],
  ])('treats SQLSTATE %s (%s) as transient', (code) => {
    expect(isTransientDatabaseError(coded(code))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN'])(
    'treats socket error %s as transient',
    (code) => {
      expect(isTransientDatabaseError(coded(code, `connect ${code} 127.0.0.1:5432`))).toBe(true);
    },
  );

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
    'terminating connection due to administrator command',
    'the database system is starting up',
    'sorry, too many clients already',
  ])('treats "%s" as transient', (message) => {
    expect(isTransientDatabaseError(new Error(message))).toBe(true);
  });

  it('looks inside what TypeORM, causes and AggregateError wrap', () => {
    const queryFailed = Object.assign(new Error('Query failed'), { driverError: coded('57P01') });
    expect(isTransientDatabaseError(queryFailed)).toBe(true);
    expect(isTransientDatabaseError(new Error('could not apply', { cause: coded('ECONNRESET') }))).toBe(true);
    expect(isTransientDatabaseError(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], ''))).toBe(true);
  });

  it.each([
    ['a handler bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a broken rule', new Error('downstream rejected the update')],
    ['a unique violation', coded('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', coded('42601', 'syntax error at or near "SELEC"')],
    ['a check violation wrapped by TypeORM', Object.assign(new Error('Query failed'), { driverError: coded('23514') })],
  ])('treats %s as the handler’s own failure', (_label, err) => {
    expect(isTransientDatabaseError(err)).toBe(false);
  });

  it('answers false for things that are not errors, and survives cycles', () => {
    expect(isTransientDatabaseError(undefined)).toBe(false);
    expect(isTransientDatabaseError('ECONNREFUSED')).toBe(false);
    const a: Record<string, unknown> = { message: 'outer' };
    a.cause = a;
    expect(isTransientDatabaseError(a)).toBe(false);
  });
});

import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { dataSourceOptions } from './database.js';
import { TypeOrmPinoLogger } from './typeorm-logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, stream) };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('TypeOrmPinoLogger', () => {
  it('logs a failed query as JSON without its parameters', async () => {
    const { lines, logger } = capture();
    const secret = 'scrypt$32768$8$1$salt$hash';
    new TypeOrmPinoLogger(logger).logQueryError(
      Object.assign(new Error('connection reset'), { code: '08006' }),
      'INSERT INTO users VALUES ($1)',
      [secret],
    );
    await flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'query failed',
      code: '08006',
      error: 'connection reset',
      query: 'INSERT INTO users VALUES ($1)',
    });
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('logs a unique violation (usually a handled race) at debug', async () => {
    const { lines, logger } = capture();
    new TypeOrmPinoLogger(logger).logQueryError(Object.assign(new Error('duplicate key'), { code: '23505' }), 'INSERT', ['x']);
    await flush();
    expect(lines[0]).toMatchObject({ level: 20, code: '23505' });
  });

  it('is used by dataSourceOptions only when a logger is given', () => {
    const base = { url: 'postgres://localhost/x', entities: [], migrations: [] };
    expect(dataSourceOptions(base).logger).toBeUndefined();
    expect(dataSourceOptions({ ...base, logger: capture().logger }).logger).toBeInstanceOf(TypeOrmPinoLogger);
  });
});

import { EventEmitter } from 'node:events';
import { isConnectionError, producerConnection, redisRetryStrategy, reportRedisOutages } from './connection.js';

describe('media queue connection behaviour', () => {
  it('retries 100 ms more each time, up to once a second', () => {
    expect([1, 2, 5, 10, 11, 50].map(redisRetryStrategy)).toEqual([100, 200, 500, 1000, 1000, 1000]);
  });

  it("keeps where Redis is (the kit's options, Sentinel included) and adds a producer's fail-fast behaviour", () => {
    const where = { sentinels: [{ host: 's', port: 26379 }], name: 'clipit', password: 'p', db: 2 };
    expect(producerConnection(where)).toEqual({
      ...where,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: redisRetryStrategy,
    });
  });

  it('tells a connection error from another', () => {
    expect(isConnectionError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isConnectionError(new Error('Missing lock for job 1. moveToFinished'))).toBe(false);
  });

  it('reports an outage once when it starts and once when it ends, and every other error', () => {
    const target = new EventEmitter();
    const backend = new EventEmitter();
    const lines: string[] = [];
    const log = { warn: (_: object, msg: string) => lines.push(`warn ${msg}`), info: (msg: string) => lines.push(`info ${msg}`) };
    reportRedisOutages(Object.assign(target, { getBackend: () => backend }), log, 'q');
    backend.emit('ready');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 5; i++) target.emit('error', refused);
    backend.emit('ready');
    backend.emit('ready');
    target.emit('error', new Error('Missing lock'));
    target.emit('error', new Error('Missing lock'));
    expect(lines).toEqual([
      'warn q: Redis connection lost; reconnecting',
      'info q: Redis connection back',
      'warn q: error',
      'warn q: error',
    ]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { dataSourceOptions } from './database.js';

describe('dataSourceOptions', () => {
  const base = { url: 'postgres://localhost/x', entities: [], migrations: [] };

  it("bounds the pool and closes a connection idle for pg's 10 s when nothing else is asked", () => {
    expect(dataSourceOptions(base).extra).toEqual({ max: 10, idleTimeoutMillis: 10_000 });
  });

  it('takes the pool size and idle time a service is configured with (<P>_DB_POOL_SIZE, DB_POOL_IDLE_MS)', () => {
    expect(dataSourceOptions({ ...base, poolSize: 4, poolIdleMs: 1000 }).extra).toEqual({ max: 4, idleTimeoutMillis: 1000 });
  });
});

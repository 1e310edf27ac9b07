import { z } from 'zod';
import { ConfigError, env, loadConfig, sharedConfigShape } from './config.js';

describe('loadConfig', () => {
  const shape = { ...sharedConfigShape, SERVICE_PORT: env.port(8080), MIGRATE: env.bool(true), UPSTREAM: env.hostPort('127.0.0.1:50051') };

  it('fills every default on an empty environment', () => {
    expect(loadConfig(shape, {})).toEqual({
      LOG_LEVEL: 'info',
      NATS_URL: 'nats://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: 'clipit:',
      EVENTS_STREAM: 'CLIPIT_EVENTS',
      EVENTS_SUBJECT_PREFIX: 'events',
      BUS_ACK_WAIT_MS: 30_000,
      BUS_RETRY_BACKOFF_MS: [1000, 5000, 15000, 30000],
      BUS_MAX_ATTEMPTS: 5,
      BUS_OUTAGE_BACKOFF_MAX_MS: 5000,
      SERVICE_PORT: 8080,
      MIGRATE: true,
      UPSTREAM: '127.0.0.1:50051',
    });
  });

  it('reads a backoff schedule as whole milliseconds, and refuses anything else', () => {
    expect(loadConfig(shape, { BUS_RETRY_BACKOFF_MS: '200, 800,2000' }).BUS_RETRY_BACKOFF_MS).toEqual([200, 800, 2000]);
    for (const bad of ['1s,2s', '100,,200', '-5', '0']) {
      expect(() => loadConfig(shape, { BUS_RETRY_BACKOFF_MS: bad })).toThrow(
        `BUS_RETRY_BACKOFF_MS=${JSON.stringify(bad)} is invalid: must be comma-separated whole milliseconds, each at least 1`,
      );
    }
  });

  it('treats an empty value as unset and coerces types', () => {
    expect(loadConfig(shape, { SERVICE_PORT: '9000', MIGRATE: 'false', LOG_LEVEL: '' })).toMatchObject({
      SERVICE_PORT: 9000,
      MIGRATE: false,
      LOG_LEVEL: 'info',
    });
  });

  it('stops start-up naming every bad variable and its value', () => {
    let error: unknown;
    try {
      loadConfig(shape, { SERVICE_PORT: '70000', NATS_URL: 'http://x', UPSTREAM: 'nohost', MIGRATE: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('SERVICE_PORT="70000" is invalid');
    expect(message).toContain('NATS_URL="http://x" is invalid: must be a URL starting with nats:// or tls://');
    expect(message).toContain('UPSTREAM="nohost" is invalid: must be host:port');
    expect(message).toContain('MIGRATE="maybe" is invalid');
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('names a required variable that is missing', () => {
    expect(() => loadConfig({ SECRET_KEY: z.string().min(16) }, {})).toThrow(/SECRET_KEY is missing/);
  });
});

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
      EVENTS_STREAM_REPLICAS: 1,
      BUS_ACK_WAIT_MS: 30_000,
      BUS_RETRY_BACKOFF_MS: [1000, 5000, 15000, 30000],
      BUS_MAX_ATTEMPTS: 5,
      BUS_OUTAGE_BACKOFF_MAX_MS: 5000,
      GRPC_MAX_CONNECTION_AGE_MS: 300_000,
      GRPC_MAX_CONNECTION_AGE_GRACE_MS: 30_000,
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

  it('takes a NATS cluster as a comma list of its nodes, and the stream replicas from 1 to 5', () => {
    const nodes = 'nats://127.0.0.1:4222, nats://127.0.0.1:4223,tls://nats-2:4222';
    expect(loadConfig(shape, { NATS_URL: nodes, EVENTS_STREAM_REPLICAS: '3' })).toMatchObject({
      NATS_URL: nodes,
      EVENTS_STREAM_REPLICAS: 3,
    });
    expect(() => loadConfig(shape, { NATS_URL: 'nats://127.0.0.1:4222,127.0.0.1:4223' })).toThrow(
      'NATS_URL="nats://127.0.0.1:4222,127.0.0.1:4223" is invalid: must be a URL starting with nats:// or tls://, or a comma-separated list of them',
    );
    for (const bad of ['0', '6', '2.5', 'three']) {
      expect(() => loadConfig(shape, { EVENTS_STREAM_REPLICAS: bad })).toThrow(`EVENTS_STREAM_REPLICAS=${JSON.stringify(bad)} is invalid`);
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

import { describe, expect, it } from '@jest/globals';
import { loadConfig, sharedConfigShape } from '@clipit/service-kit';
import { shutdownGraceMs, workerConfigShape, workerPrefix, workerSettings } from './config.js';

const shape = { ...sharedConfigShape, ...workerConfigShape('THUMBS_WORKER', { httpPort: 8120, concurrency: 3, drainSeconds: 7 }) };

describe('worker configuration', () => {
  it("names every worker's variables after its prefix, with the platform's defaults and its own", () => {
    const config = loadConfig(shape, {});
    expect(config).toMatchObject({
      THUMBS_WORKER_HTTP_PORT: 8120,
      THUMBS_WORKER_BIND_HOST: '0.0.0.0',
      THUMBS_WORKER_CONCURRENCY: 3,
      THUMBS_WORKER_LOCK_DURATION_MS: 30_000,
      THUMBS_WORKER_STALLED_INTERVAL_MS: 30_000,
      THUMBS_WORKER_MAX_STALLED_COUNT: 2,
      THUMBS_WORKER_RUN_RETRY_DELAY_MS: 15_000,
      THUMBS_WORKER_DRAIN_SECONDS: 7,
      THUMBS_WORKER_PUBLISH_TIMEOUT_MS: 5000,
      THUMBS_WORKER_PUBLISH_RETRY_MIN_MS: 2000,
      THUMBS_WORKER_PUBLISH_RETRY_MAX_MS: 30_000,
    });
    expect(workerSettings(config, 'THUMBS_WORKER')).toEqual({
      connection: { host: '127.0.0.1', port: 6379 },
      redisKeyPrefix: 'clipit:',
      concurrency: 3,
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      maxStalledCount: 2,
      runRetryDelayMs: 15_000,
      drainMs: 7000,
      publishTimeoutMs: 5000,
      publishRetryMinMs: 2000,
      publishRetryMaxMs: 30_000,
    });
  });

  it('names a bad value, and never lets the publish backoff cap fall below its minimum', () => {
    expect(() => loadConfig(shape, { THUMBS_WORKER_LOCK_DURATION_MS: '10' })).toThrow(/THUMBS_WORKER_LOCK_DURATION_MS="10" is invalid/);
    const config = loadConfig(shape, { THUMBS_WORKER_PUBLISH_RETRY_MIN_MS: '5000', THUMBS_WORKER_PUBLISH_RETRY_MAX_MS: '100' });
    expect(workerSettings(config, 'THUMBS_WORKER')).toMatchObject({ publishRetryMinMs: 5000, publishRetryMaxMs: 5000 });
    expect(() => workerSettings(config, 'OTHER_WORKER')).toThrow(/no OTHER_WORKER_CONCURRENCY/);
  });

  it('gives the process entry the drain time plus ten seconds, the default drain when the variable is bad', () => {
    expect(shutdownGraceMs(shape, 'THUMBS_WORKER', {})).toBe(17_000);
    expect(shutdownGraceMs(shape, 'THUMBS_WORKER', { THUMBS_WORKER_DRAIN_SECONDS: '30' })).toBe(40_000);
    expect(shutdownGraceMs(shape, 'THUMBS_WORKER', { THUMBS_WORKER_DRAIN_SECONDS: 'soon' })).toBe(17_000);
  });

  it('derives the prefix from the name as the service kit does', () => {
    expect(workerPrefix('media-worker')).toBe('MEDIA_WORKER');
  });
});

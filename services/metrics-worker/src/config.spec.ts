import { itAgreesWithEnvExample } from '@clipit/testing';
import { loadMetricsWorkerConfig, metricsWorkerConfigShape, shutdownGraceMs } from './config.js';

describe('metrics-worker configuration', () => {
  itAgreesWithEnvExample(metricsWorkerConfigShape, loadMetricsWorkerConfig);

  it("defaults to X's API, no token (start-up refuses that), two jobs at a time", () => {
    expect(loadMetricsWorkerConfig({})).toMatchObject({
      X_API_BASE_URL: 'https://api.x.com',
      X_API_BEARER_TOKEN: undefined,
      METRICS_WORKER_CONCURRENCY: 2,
      METRICS_WORKER_HTTP_PORT: 8109,
    });
  });

  it('names a bad value, and drops a trailing slash of the base URL', () => {
    expect(() => loadMetricsWorkerConfig({ METRICS_WORKER_CONCURRENCY: '0' })).toThrow(/METRICS_WORKER_CONCURRENCY="0" is invalid/);
    expect(() => loadMetricsWorkerConfig({ X_API_BASE_URL: 'api.x.com' })).toThrow(/X_API_BASE_URL="api.x.com" is invalid/);
    expect(loadMetricsWorkerConfig({ X_API_BASE_URL: 'http://127.0.0.1:9999/' }).X_API_BASE_URL).toBe('http://127.0.0.1:9999');
  });

  it('gives the process entry the drain time plus ten seconds to close', () => {
    expect(shutdownGraceMs({})).toBe(20_000);
    expect(shutdownGraceMs({ METRICS_WORKER_DRAIN_SECONDS: '5' })).toBe(15_000);
    expect(shutdownGraceMs({ METRICS_WORKER_DRAIN_SECONDS: 'soon' })).toBe(20_000);
  });
});

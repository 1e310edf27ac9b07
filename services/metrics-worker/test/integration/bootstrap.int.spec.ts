// Start-up refuses bad surroundings loudly and leaves nothing running.
import { ConfigError } from '@clipit/service-kit';
import { freePorts } from '@clipit/testing';
import { bootstrapMetricsWorker, MISSING_TOKEN_MESSAGE } from '../../src/app.js';

describe('bootstrapMetricsWorker', () => {
  it('names a bad variable and starts nothing', async () => {
    await expect(
      bootstrapMetricsWorker({ METRICS_WORKER_CONCURRENCY: 'many', X_API_BEARER_TOKEN: 't', LOG_LEVEL: 'silent' }),
    ).rejects.toThrow(ConfigError);
    await expect(bootstrapMetricsWorker({ X_API_TIMEOUT_MS: '5', X_API_BEARER_TOKEN: 't', LOG_LEVEL: 'silent' })).rejects.toThrow(
      /X_API_TIMEOUT_MS="5" is invalid/,
    );
  });

  it("refuses to start without X's bearer token, saying which variable and where to get it, and serves nothing", async () => {
    const [port] = (await freePorts(1)) as [number];
    const started = bootstrapMetricsWorker({
      X_API_BEARER_TOKEN: '',
      METRICS_WORKER_HTTP_PORT: port,
      METRICS_WORKER_BIND_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    await expect(started).rejects.toThrow(MISSING_TOKEN_MESSAGE);
    await expect(started).rejects.toThrow(/X_API_BEARER_TOKEN is not set/);
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
  });
});

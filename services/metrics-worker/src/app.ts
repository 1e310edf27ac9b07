import { bootstrapService, packageVersion, resource, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { defineWorker } from '@clipit/worker-kit';
import { MetricsWorkerModule } from './app.module.js';
import { metricsWorkerConfigShape, type MetricsWorkerConfig } from './config.js';
import { X_API } from './metrics-worker.tokens.js';
import { MetricsQueueWorker } from './worker/metrics-queue.worker.js';
import { XApiClient } from './x-api/x-api.client.js';

/** Why a worker without a bearer token does not start. */
export const MISSING_TOKEN_MESSAGE =
  "X_API_BEARER_TOKEN is not set: the metrics worker needs the X app's bearer token (developer portal → the app → Keys and tokens → Bearer Token) to look posts up. Set it (in .env for npm start, the Secret clipit-secrets in Kubernetes), or leave this worker off.";

/**
 * metrics-worker: takes refresh-metrics jobs from the metrics queue in Redis, looks their posts up at
 * X's API v2 (at X's rate limit, shared by every process) and states metrics.fetched on NATS. No database.
 */
export const metricsWorkerService = defineWorker(metricsWorkerConfigShape, {
  name: 'metrics-worker',
  version: packageVersion(import.meta.url),
  resources: [
    // A worker without X's token would fail every job: refuse to start instead, saying what is missing.
    resource('X API', X_API, ({ config }) => {
      if (!config.X_API_BEARER_TOKEN) throw new Error(MISSING_TOKEN_MESSAGE);
      return new XApiClient({ baseUrl: config.X_API_BASE_URL, bearerToken: config.X_API_BEARER_TOKEN, timeoutMs: config.X_API_TIMEOUT_MS });
    }),
  ],
  worker: MetricsQueueWorker,
  module: MetricsWorkerModule,
});

export type MetricsWorkerApp = ServiceApp<MetricsWorkerConfig>;
export type MetricsWorkerConfigOverrides = ConfigOverrides<typeof metricsWorkerConfigShape>;

export const bootstrapMetricsWorker = (overrides: MetricsWorkerConfigOverrides = {}): Promise<MetricsWorkerApp> =>
  bootstrapService(metricsWorkerService, overrides);

import { DEVELOPMENT_WEBHOOK_SECRET_KEY } from '@clipit/contracts';
import { env, isSealingKey, loadConfig, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { shutdownGraceMs as workerShutdownGraceMs, workerConfigShape } from '@clipit/worker-kit';
import { z } from 'zod';

export { isSealingKey };

/** Every variable webhook-worker reads, with a default that works on one machine. Validated once at boot. */
export const webhookWorkerConfigShape = {
  ...sharedConfigShape,
  // HTTP serves only /health/live, /health/ready and /metrics; the queue worker's budgets are the worker kit's.
  // An attempt mostly waits on its receiver (at most WEBHOOK_TIMEOUT_MS), so one process runs ten at once.
  ...workerConfigShape('WEBHOOK_WORKER', { httpPort: 8111, concurrency: 10, drainSeconds: 10 }),
  /** development (default) or production: production refuses the development key and loopback deliveries. */
  NODE_ENV: z.string().default('development'),
  /**
   * The key the endpoints' signing secrets are sealed under (AES-256-GCM; developer seals with the same key):
   * base64 of 32 bytes. The default is published in the contracts, so production refuses it (startProblem).
   */
  WEBHOOK_SECRET_KEY: z
    .string()
    .default(DEVELOPMENT_WEBHOOK_SECRET_KEY)
    .refine(isSealingKey, 'must be the base64 of 32 bytes (openssl rand -base64 32)'),
  /** One attempt's whole budget, from connecting to the last byte read; past it the endpoint "did not answer". */
  WEBHOOK_TIMEOUT_MS: env.int(10_000, 100),
  /** Lets deliveries reach loopback addresses (127.0.0.0/8, ::1): tests' own receivers only. Private ranges stay refused. */
  WEBHOOK_ALLOW_LOOPBACK: env.bool(false),
};

export type WebhookWorkerConfig = ConfigOf<typeof webhookWorkerConfigShape>;

export function loadWebhookWorkerConfig(source: NodeJS.ProcessEnv = process.env): WebhookWorkerConfig {
  return loadConfig(webhookWorkerConfigShape, source);
}

/**
 * Why this configuration must not run in production, or undefined when it may: the development sealing key
 * (published in the repository, so every sealed secret would read as plain), a key that is not 32 bytes, or
 * loopback deliveries allowed (an endpoint could then reach this machine's own services).
 */
export function productionConfigProblem(
  config: Pick<WebhookWorkerConfig, 'NODE_ENV' | 'WEBHOOK_SECRET_KEY' | 'WEBHOOK_ALLOW_LOOPBACK'>,
): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.WEBHOOK_SECRET_KEY === DEVELOPMENT_WEBHOOK_SECRET_KEY)
    return "WEBHOOK_SECRET_KEY is the development default; set the key developer seals the endpoints' secrets under (openssl rand -base64 32, the same for both)";
  if (!isSealingKey(config.WEBHOOK_SECRET_KEY)) return 'WEBHOOK_SECRET_KEY must be the base64 of 32 bytes in production';
  if (config.WEBHOOK_ALLOW_LOOPBACK) return 'WEBHOOK_ALLOW_LOOPBACK is for tests only: production never delivers to loopback addresses';
  return undefined;
}

/** How long the process entry waits for close() after SIGTERM: the drain (WEBHOOK_WORKER_DRAIN_SECONDS) plus ten seconds. */
export function shutdownGraceMs(source: NodeJS.ProcessEnv = process.env): number {
  return workerShutdownGraceMs(webhookWorkerConfigShape, 'WEBHOOK_WORKER', source);
}

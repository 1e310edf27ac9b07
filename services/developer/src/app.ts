import { developerContract } from '@clipit/contracts';
import {
  bootstrapService,
  defineService,
  every,
  packageVersion,
  resource,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import { DeveloperModule } from './app.module.js';
import { developerConfigShape, productionConfigProblem, type DeveloperConfig } from './config.js';
import { developerEntities, developerMigrations } from './database.js';
import { WebhookDeliveriesService } from './services/webhook-deliveries.service.js';
import { WebhookDispatcher } from './services/webhook-dispatcher.service.js';
import { openWebhookQueue, WEBHOOK_QUEUE_PORT } from './webhook-queue.js';

/**
 * developer: developers' access (ADR 0053), served over gRPC (developer.v1.DeveloperService). API keys for
 * the versioned read API; webhook endpoints, whose deliveries it writes from the platform's events in
 * their inbox transaction and hands to the webhook worker one attempt at a time, applying each outcome.
 */
export const developerService = defineService(developerConfigShape, {
  name: 'developer',
  version: packageVersion(import.meta.url),
  startProblem: productionConfigProblem,
  database: { entities: developerEntities, migrations: developerMigrations },
  grpc: developerContract,
  resources: [
    resource('webhook queue', WEBHOOK_QUEUE_PORT, ({ config, logger }) => openWebhookQueue(config, logger), {
      close: (q) => q.close(),
      health: (q) => [q.healthCheck],
    }),
  ],
  events: ({ get }) => ({
    'submission.approved': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'submission.rejected': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'rewards.payout-paid': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'campaign.progress': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'campaign.completed': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'appeal.decided': (event, tx) => get(WebhookDeliveriesService).onPlatformEvent(event, tx),
    'webhook.attempted': (event, tx) => get(WebhookDeliveriesService).onAttempted(event.data, tx),
  }),
  // After each applied event's commit: new deliveries, or an endpoint's next one, go to the worker at once.
  afterEvent: ({ get }) => {
    const dispatcher = get(WebhookDispatcher);
    return () => dispatcher.kick();
  },
  workers: [
    // The backstop: retries whose time has come, deliveries that waited for Redis, jobs Redis lost.
    every(
      'webhook dispatcher',
      (c) => c.WEBHOOK_DISPATCH_INTERVAL_MS,
      ({ get }) => get(WebhookDispatcher).tick(),
    ),
  ],
  module: DeveloperModule,
});

export type DeveloperApp = ServiceApp<DeveloperConfig>;
export type DeveloperConfigOverrides = ConfigOverrides<typeof developerConfigShape>;

export const bootstrapDeveloper = (overrides: DeveloperConfigOverrides = {}): Promise<DeveloperApp> =>
  bootstrapService(developerService, overrides);

import { Module } from '@nestjs/common';
import { DeveloperController } from './controllers/developer.controller.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { ApiKeysService } from './services/api-keys.service.js';
import { DescribeService } from './services/describe.service.js';
import { WebhookDeliveriesService } from './services/webhook-deliveries.service.js';
import { WebhookDispatcher } from './services/webhook-dispatcher.service.js';
import { WebhookEndpointsService } from './services/webhook-endpoints.service.js';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository.js';
import { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository.js';

/** developer's controller, application services and repositories; the kit provides config, logger, database, outbox and the transaction runner. */
@Module({
  controllers: [DeveloperController],
  providers: [
    MigrationRepository,
    ApiKeyRepository,
    WebhookEndpointRepository,
    WebhookDeliveryRepository,
    DescribeService,
    ApiKeysService,
    WebhookEndpointsService,
    WebhookDeliveriesService,
    WebhookDispatcher,
  ],
})
export class DeveloperModule {}

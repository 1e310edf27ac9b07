import { Module } from '@nestjs/common';
import { CampaignsController } from './controllers/campaigns.controller.js';
import { ApplicationRepository } from './repositories/application.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { ApplicationsService } from './services/applications.service.js';
import { DescribeService } from './services/describe.service.js';

/** campaigns's controller, application services and repositories; the kit provides config, logger, database and outbox. */
@Module({
  controllers: [CampaignsController],
  providers: [MigrationRepository, DescribeService, ApplicationRepository, ApplicationsService],
})
export class CampaignsModule {}

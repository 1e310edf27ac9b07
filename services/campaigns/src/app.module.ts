import { Module } from '@nestjs/common';
import { CampaignsController } from './controllers/campaigns.controller.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { DescribeService } from './services/describe.service.js';

/** campaigns's controller, application services and repositories; the kit provides config, logger and database. */
@Module({
  controllers: [CampaignsController],
  providers: [MigrationRepository, DescribeService],
})
export class CampaignsModule {}

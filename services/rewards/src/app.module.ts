import { Module } from '@nestjs/common';
import { RewardsController } from './controllers/rewards.controller.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { DescribeService } from './services/describe.service.js';

/** rewards's controller, application services and repositories; the kit provides config, logger and database. */
@Module({
  controllers: [RewardsController],
  providers: [MigrationRepository, DescribeService],
})
export class RewardsModule {}

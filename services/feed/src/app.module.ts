import { Module } from '@nestjs/common';
import { FeedController } from './controllers/feed.controller.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { ReadRepository } from './repositories/read.repository.js';
import { DescribeService } from './services/describe.service.js';
import { LagService } from './services/lag.service.js';
import { ProjectionsService } from './services/projections.service.js';
import { ReadService } from './services/read.service.js';

/** feed's controller, application services and repositories; the kit provides config, logger, database and NATS. */
@Module({
  controllers: [FeedController],
  providers: [MigrationRepository, ReadRepository, DescribeService, ReadService, ProjectionsService, LagService],
})
export class FeedModule {}

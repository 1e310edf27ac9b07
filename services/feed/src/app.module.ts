import { Module } from '@nestjs/common';
import { FeedController } from './controllers/feed.controller.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { DescribeService } from './services/describe.service.js';

/** feed's controller, application services and repositories; the kit provides config, logger and database. */
@Module({
  controllers: [FeedController],
  providers: [MigrationRepository, DescribeService],
})
export class FeedModule {}

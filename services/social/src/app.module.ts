import { Module } from '@nestjs/common';
import { SocialController } from './controllers/social.controller.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { DescribeService } from './services/describe.service.js';

/** social's controller, application services and repositories; the kit provides config, logger and database. */
@Module({
  controllers: [SocialController],
  providers: [MigrationRepository, DescribeService],
})
export class SocialModule {}

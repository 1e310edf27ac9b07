import { Module } from '@nestjs/common';
import { DeveloperController } from './controllers/developer.controller.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { ApiKeysService } from './services/api-keys.service.js';
import { DescribeService } from './services/describe.service.js';

/** developer's controller, application services and repositories; the kit provides config, logger, database, outbox and the transaction runner. */
@Module({
  controllers: [DeveloperController],
  providers: [MigrationRepository, ApiKeyRepository, DescribeService, ApiKeysService],
})
export class DeveloperModule {}

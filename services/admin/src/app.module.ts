import { Module } from '@nestjs/common';
import { AdminController } from './controllers/admin.controller.js';
import { AuditRepository } from './repositories/audit.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { PlatformProbes } from './repositories/platform-probes.js';
import { SystemMetricsRepository } from './repositories/system-metrics.repository.js';
import { AccessService } from './services/access.service.js';
import { AppealsService } from './services/appeals.service.js';
import { ApplicationsService } from './services/applications.service.js';
import { AuditService } from './services/audit.service.js';
import { CampaignsReviewService } from './services/campaigns-review.service.js';
import { DescribeService } from './services/describe.service.js';
import { EarningHoldsService } from './services/earning-holds.service.js';
import { ModerationService } from './services/moderation.service.js';
import { PlaceholdersService } from './services/placeholders.service.js';
import { SystemMetricsService } from './services/system-metrics.service.js';

/** admin's controller, application services and repositories; the kit provides config, logger, database, Redis and the clients. */
@Module({
  controllers: [AdminController],
  providers: [
    MigrationRepository,
    AuditRepository,
    DescribeService,
    AuditService,
    AccessService,
    EarningHoldsService,
    ModerationService,
    PlaceholdersService,
    ApplicationsService,
    CampaignsReviewService,
    SystemMetricsRepository,
    PlatformProbes,
    SystemMetricsService,
    AppealsService,
  ],
})
export class AdminModule {}

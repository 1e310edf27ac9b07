import { CONFIG } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RewardsConfig } from './config.js';
import { createPayoutDriver } from './payouts/drivers.js';
import { PAYOUT_DRIVER } from './payouts/payout-driver.js';
import { RewardsController } from './controllers/rewards.controller.js';
import { EarningRepository } from './repositories/earning.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { PayoutRepository } from './repositories/payout.repository.js';
import { PeopleRepository } from './repositories/people.repository.js';
import { StandingRepository } from './repositories/standing.repository.js';
import { SubmissionRepository } from './repositories/submission.repository.js';
import { TiersRepository } from './repositories/tiers.repository.js';
import { AppealReleasesService } from './services/appeal-releases.service.js';
import { DashboardNotices } from './services/dashboard-notices.service.js';
import { DescribeService } from './services/describe.service.js';
import { DirectoryService } from './services/directory.service.js';
import { EarningHoldsService } from './services/earning-holds.service.js';
import { PayoutService } from './services/payout.service.js';
import { ProjectionsService } from './services/projections.service.js';
import { RewardsQueryService } from './services/rewards-query.service.js';
import { StandingService } from './services/standing.service.js';
import { StreamerMultiplierService } from './services/streamer-multiplier.service.js';

/** rewards's controller, application services and repositories; the kit provides config, logger, database, outbox and the identity client. */
@Module({
  controllers: [RewardsController],
  providers: [
    MigrationRepository,
    TiersRepository,
    PeopleRepository,
    SubmissionRepository,
    StandingRepository,
    EarningRepository,
    PayoutRepository,
    DashboardNotices,
    DescribeService,
    DirectoryService,
    StandingService,
    StreamerMultiplierService,
    ProjectionsService,
    RewardsQueryService,
    PayoutService,
    EarningHoldsService,
    AppealReleasesService,
    {
      provide: PAYOUT_DRIVER,
      inject: [DataSource, CONFIG],
      useFactory: (dataSource: DataSource, config: RewardsConfig) => createPayoutDriver(config, dataSource),
    },
  ],
})
export class RewardsModule {}

import { Module } from '@nestjs/common';
import { CampaignsController } from './controllers/campaigns.controller.js';
import { ApplicationRepository } from './repositories/application.repository.js';
import { CampaignRepository } from './repositories/campaign.repository.js';
import { ClipRepository } from './repositories/clip.repository.js';
import { HireRepository } from './repositories/hire.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { PeopleRepository } from './repositories/people.repository.js';
import { ProfileRepository } from './repositories/profile.repository.js';
import { ApplicationsService } from './services/applications.service.js';
import { CampaignClipsService } from './services/campaign-clips.service.js';
import { CampaignProgressService } from './services/campaign-progress.service.js';
import { ClipperProfilesService } from './services/clipper-profiles.service.js';
import { ClipperProfileEventsService } from './services/clipper-profile-events.service.js';
import { CpmCampaignsService } from './services/cpm-campaigns.service.js';
import { DescribeService } from './services/describe.service.js';
import { HiresService } from './services/hires.service.js';
import { ProjectionsService } from './services/projections.service.js';

/** campaigns's controller, application services and repositories; the kit provides config, logger, database and outbox. */
@Module({
  controllers: [CampaignsController],
  providers: [
    MigrationRepository,
    ApplicationRepository,
    CampaignRepository,
    ClipRepository,
    HireRepository,
    PeopleRepository,
    ProfileRepository,
    DescribeService,
    ApplicationsService,
    CampaignClipsService,
    CampaignProgressService,
    CpmCampaignsService,
    ClipperProfileEventsService,
    ClipperProfilesService,
    HiresService,
    ProjectionsService,
  ],
})
export class CampaignsModule {}

import { Module } from '@nestjs/common';
import { SocialController } from './controllers/social.controller.js';
import { ClipRepository } from './repositories/clip.repository.js';
import { FollowRepository } from './repositories/follow.repository.js';
import { LiveRepository } from './repositories/live.repository.js';
import { MigrationRepository } from './repositories/migration.repository.js';
import { PeopleRepository } from './repositories/people.repository.js';
import { DescribeService } from './services/describe.service.js';
import { DirectoryService } from './services/directory.service.js';
import { FollowsService } from './services/follows.service.js';
import { LikesService } from './services/likes.service.js';
import { LiveService } from './services/live.service.js';
import { ProjectionsService } from './services/projections.service.js';

/** social's controller, application services and repositories; the kit provides config, logger, database, outbox and the identity client. */
@Module({
  controllers: [SocialController],
  providers: [
    MigrationRepository,
    PeopleRepository,
    FollowRepository,
    ClipRepository,
    LiveRepository,
    DescribeService,
    DirectoryService,
    FollowsService,
    LikesService,
    LiveService,
    ProjectionsService,
  ],
})
export class SocialModule {}

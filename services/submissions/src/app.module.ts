import { Module } from '@nestjs/common';
import { AppealRepository } from './repositories/appeal.repository.js';
import { AppealsService } from './services/appeals.service.js';
import { FingerprintRepository } from './repositories/fingerprint.repository.js';
import { FingerprintMatchesService } from './services/fingerprint-matches.service.js';
import { MatchesPublishedService } from './services/matches-published.service.js';
import { SubmissionsController } from './controllers/submissions.controller.js';
import { MetricsRepository } from './repositories/metrics.repository.js';
import { SubmissionRepository } from './repositories/submission.repository.js';
import { VideoStorageRepository } from './repositories/video-storage.repository.js';
import { MediaReconcilerService } from './services/media-reconciler.service.js';
import { EngagementNormsService } from './services/engagement-norms.service.js';
import { MediaVerdictsService } from './services/media-verdicts.service.js';
import { MetricsHistoryService } from './services/metrics-history.service.js';
import { MetricsSchedulerService } from './services/metrics-scheduler.service.js';
import { ModerationService } from './services/moderation.service.js';
import { PostMetricsService } from './services/post-metrics.service.js';
import { SubmissionsService } from './services/submissions.service.js';
import { UploadSweeperService } from './services/upload-sweeper.service.js';
import { VideoStateService } from './services/video-state.service.js';
import { VideoUploadService } from './services/video-upload.service.js';

/** submissions' controller, application services and repositories; the kit provides the infrastructure. */
@Module({
  controllers: [SubmissionsController],
  providers: [
    SubmissionRepository,
    MetricsRepository,
    FingerprintRepository,
    FingerprintMatchesService,
    MatchesPublishedService,
    VideoStorageRepository,
    VideoStateService,
    SubmissionsService,
    VideoUploadService,
    ModerationService,
    MediaVerdictsService,
    MediaReconcilerService,
    UploadSweeperService,
    MetricsSchedulerService,
    EngagementNormsService,
    PostMetricsService,
    MetricsHistoryService,
    AppealRepository,
    AppealsService,
  ],
})
export class SubmissionsModule {}

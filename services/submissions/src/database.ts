import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { AppealEntity } from './entities/appeal.entity.js';
import { LinkedXAccountEntity } from './entities/linked-x-account.entity.js';
import { MetricsHistoryEntity } from './entities/metrics-history.entity.js';
import { SubmissionEntity } from './entities/submission.entity.js';
import { VideoUploadEntity } from './entities/video-upload.entity.js';
import { CreateSubmissionsTables1764000000000 } from './migrations/1764000000000-create-submissions-tables.js';
import { IndexProcessingUploads1764100000000 } from './migrations/1764100000000-index-processing-uploads.js';
import { PostMetrics1764200000000 } from './migrations/1764200000000-post-metrics.js';
import { GuideChecks1764300000000 } from './migrations/1764300000000-guide-checks.js';
import { VideoFingerprints1764400000000 } from './migrations/1764400000000-video-fingerprints.js';
import { ViewRisk1764500000000 } from './migrations/1764500000000-view-risk.js';
import { Appeals1764600000000 } from './migrations/1764600000000-appeals.js';
import { ModerationQueue1764700000000 } from './migrations/1764700000000-moderation-queue.js';

export const submissionsEntities = [SubmissionEntity, VideoUploadEntity, MetricsHistoryEntity, LinkedXAccountEntity, AppealEntity];

/** In order; the kit's outbox/inbox tables come first. */
export const submissionsMigrations = [
  CreateEventBusTables1763700000000,
  CreateSubmissionsTables1764000000000,
  IndexProcessingUploads1764100000000,
  PostMetrics1764200000000,
  GuideChecks1764300000000,
  VideoFingerprints1764400000000,
  ViewRisk1764500000000,
  Appeals1764600000000,
  ModerationQueue1764700000000,
];

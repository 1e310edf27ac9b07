import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { SubmissionEntity } from './entities/submission.entity.js';
import { VideoUploadEntity } from './entities/video-upload.entity.js';
import { CreateSubmissionsTables1764000000000 } from './migrations/1764000000000-create-submissions-tables.js';
import { IndexProcessingUploads1764100000000 } from './migrations/1764100000000-index-processing-uploads.js';

export const submissionsEntities = [SubmissionEntity, VideoUploadEntity];

/** In order; the kit's outbox/inbox tables come first. */
export const submissionsMigrations = [CreateEventBusTables1763700000000, CreateSubmissionsTables1764000000000, IndexProcessingUploads1764100000000];

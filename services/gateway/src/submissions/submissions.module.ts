import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { SubmissionStreams } from './submission-stream.js';
import { SubmissionsController } from './submissions.controller.js';
import { VideoUploadService } from './video-upload.service.js';

/**
 * /api/submissions*: the clip submission flow, answered by the submissions service (the daily limits are the create route's),
 * and the owner's stream of their submissions' changes, read from the event stream.
 */
@Module({
  // SessionGuard and its strategy.
  imports: [AuthModule],
  controllers: [SubmissionsController],
  providers: [VideoUploadService, SubmissionStreams],
})
export class SubmissionsModule {}

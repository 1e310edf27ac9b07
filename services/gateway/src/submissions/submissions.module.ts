import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { SubmissionsController } from './submissions.controller.js';
import { VideoUploadService } from './video-upload.service.js';

/** /api/submissions*: the clip submission flow, answered by the submissions service (the daily limits are the create route's). */
@Module({
  // SessionGuard and its strategy.
  imports: [AuthModule],
  controllers: [SubmissionsController],
  providers: [VideoUploadService],
})
export class SubmissionsModule {}

import { Module } from '@nestjs/common';
import { SubmissionsController } from './submissions.controller.js';
import { VideoUploadService } from './video-upload.service.js';

/** /api/submissions*: the clip submission flow, answered by the submissions service. */
@Module({ controllers: [SubmissionsController], providers: [VideoUploadService] })
export class SubmissionsModule {}

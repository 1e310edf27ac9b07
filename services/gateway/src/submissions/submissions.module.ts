import { Module } from '@nestjs/common';
import { SubmissionsController } from './submissions.controller.js';

/** /api/submissions*: the clip submission flow, answered by the submissions service. */
@Module({ controllers: [SubmissionsController] })
export class SubmissionsModule {}

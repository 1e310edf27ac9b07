import { Module } from '@nestjs/common';
import { SubmissionsController } from './controllers/submissions.controller.js';
import { SubmissionRepository } from './repositories/submission.repository.js';
import { SubmissionsService } from './services/submissions.service.js';

/** submissions' controller, application services and repositories; the kit provides the infrastructure. */
@Module({
  controllers: [SubmissionsController],
  providers: [SubmissionRepository, SubmissionsService],
})
export class SubmissionsModule {}

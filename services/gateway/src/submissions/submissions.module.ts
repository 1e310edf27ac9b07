import { CONFIG, REDIS } from '@clipit/service-kit';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AuthModule } from '../auth/auth.module.js';
import type { GatewayConfig } from '../config.js';
import { DailyQuota } from '../rate-limit/daily-quota.js';
import { SUBMISSION_QUOTA } from '../tokens.js';
import { SubmissionLimit } from './submission-limit.js';
import { SubmissionsController } from './submissions.controller.js';
import { VideoUploadService } from './video-upload.service.js';

/** /api/submissions*: the clip submission flow, answered by the submissions service. */
@Module({
  // SessionGuard and its strategy.
  imports: [AuthModule],
  controllers: [SubmissionsController],
  providers: [
    VideoUploadService,
    SubmissionLimit,
    {
      provide: SUBMISSION_QUOTA,
      useFactory: (redis: Redis, config: GatewayConfig) => new DailyQuota(redis, { keyPrefix: config.REDIS_KEY_PREFIX }),
      inject: [REDIS, CONFIG],
    },
  ],
})
export class SubmissionsModule {}

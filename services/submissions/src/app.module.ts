import { HEALTH_CHECKS, HealthController, MetricsController, natsCheck, postgresCheck, type HealthCheck, type NatsConnection } from '@clipit/service-kit';
import type { StorageDriver } from '@clipit/storage';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { SubmissionsConfig } from './config.js';
import { SubmissionsGrpcErrorFilter } from './controllers/submissions-grpc-error.filter.js';
import { SubmissionsController } from './controllers/submissions.controller.js';
import { SubmissionRepository } from './repositories/submission.repository.js';
import type { IdentityPort, MediaQueuePort } from './services/ports.js';
import { SubmissionsService } from './services/submissions.service.js';
import { IDENTITY_CLIENT, LOGGER, MEDIA_QUEUE, STORAGE, SUBMISSIONS_CONFIG } from './submissions.tokens.js';

/** What bootstrap connects before Nest starts, so start-up fails early and shutdown runs in order. */
export interface SubmissionsInfrastructure {
  config: SubmissionsConfig;
  logger: Logger;
  dataSource: DataSource;
  nc: NatsConnection;
  storage: StorageDriver;
  identity: IdentityPort;
  mediaQueue: MediaQueuePort;
  /** Beyond Postgres and NATS: the media queue's Redis. */
  extraHealthChecks: HealthCheck[];
}

@Module({})
export class SubmissionsModule {
  static forRoot(infra: SubmissionsInfrastructure): DynamicModule {
    return {
      module: SubmissionsModule,
      controllers: [SubmissionsController, HealthController, MetricsController],
      providers: [
        { provide: SUBMISSIONS_CONFIG, useValue: infra.config },
        { provide: LOGGER, useValue: infra.logger },
        { provide: DataSource, useValue: infra.dataSource },
        { provide: STORAGE, useValue: infra.storage },
        { provide: IDENTITY_CLIENT, useValue: infra.identity },
        { provide: MEDIA_QUEUE, useValue: infra.mediaQueue },
        { provide: HEALTH_CHECKS, useValue: [postgresCheck(infra.dataSource), natsCheck(infra.nc), ...infra.extraHealthChecks] },
        SubmissionsGrpcErrorFilter,
        SubmissionRepository,
        SubmissionsService,
      ],
    };
  }
}

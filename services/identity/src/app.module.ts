import { HEALTH_CHECKS, HealthController, MetricsController, natsCheck, postgresCheck, type NatsConnection } from '@clipit/service-kit';
import type { StorageDriver } from '@clipit/storage';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { IdentityConfig } from './config.js';
import { IdentityGrpcErrorFilter } from './controllers/identity-grpc-error.filter.js';
import { IdentityController } from './controllers/identity.controller.js';
import { IDENTITY_CONFIG, LOGGER, STORAGE } from './identity.tokens.js';
import { DatabaseRepository } from './repositories/database.repository.js';
import { OutboxRepository } from './repositories/outbox.repository.js';
import { PasswordResetRepository } from './repositories/password-reset.repository.js';
import { SessionRepository } from './repositories/session.repository.js';
import { StorageRepository } from './repositories/storage.repository.js';
import { TokenRepository } from './repositories/token.repository.js';
import { UserRepository } from './repositories/user.repository.js';
import { AuthService } from './services/auth.service.js';
import { PlaceholderService } from './services/placeholder.service.js';
import { SessionService } from './services/session.service.js';
import { TokenService } from './services/token.service.js';
import { UserService } from './services/user.service.js';

/** What bootstrap connects before Nest starts, so start-up fails early and shutdown runs in order. */
export interface IdentityInfrastructure {
  config: IdentityConfig;
  logger: Logger;
  dataSource: DataSource;
  nc: NatsConnection;
  storage: StorageDriver;
}

@Module({})
export class IdentityModule {
  static forRoot(infra: IdentityInfrastructure): DynamicModule {
    return {
      module: IdentityModule,
      controllers: [IdentityController, HealthController, MetricsController],
      providers: [
        { provide: IDENTITY_CONFIG, useValue: infra.config },
        { provide: LOGGER, useValue: infra.logger },
        { provide: DataSource, useValue: infra.dataSource },
        { provide: STORAGE, useValue: infra.storage },
        // Identity needs Postgres and NATS (JetStream) only; it does not use Redis.
        { provide: HEALTH_CHECKS, useValue: [postgresCheck(infra.dataSource), natsCheck(infra.nc)] },
        IdentityGrpcErrorFilter,
        DatabaseRepository,
        UserRepository,
        SessionRepository,
        TokenRepository,
        PasswordResetRepository,
        OutboxRepository,
        StorageRepository,
        SessionService,
        AuthService,
        UserService,
        TokenService,
        PlaceholderService,
      ],
    };
  }
}

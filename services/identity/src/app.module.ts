import { Module } from '@nestjs/common';
import { IdentityController } from './controllers/identity.controller.js';
import { ImageUploadRepository } from './repositories/image-upload.repository.js';
import { EmailLinkRepository } from './repositories/email-link.repository.js';
import { MailRepository } from './repositories/mail.repository.js';
import { PasswordResetRepository } from './repositories/password-reset.repository.js';
import { SessionRepository } from './repositories/session.repository.js';
import { StorageRepository } from './repositories/storage.repository.js';
import { TokenRepository } from './repositories/token.repository.js';
import { UserRepository } from './repositories/user.repository.js';
import { ImageUploadService } from './services/image-upload.service.js';
import { EmailVerificationService } from './services/email-verification.service.js';
import { MailService } from './services/mail.service.js';
import { AuthService } from './services/auth.service.js';
import { PasswordHasher } from './services/password-hasher.service.js';
import { PlaceholderService } from './services/placeholder.service.js';
import { SessionService } from './services/session.service.js';
import { SocialMirrorService } from './services/social-mirror.service.js';
import { TokenService } from './services/token.service.js';
import { UserService } from './services/user.service.js';
import { XSignInService } from './services/x-sign-in.service.js';

/** identity's controller, application services and repositories; the kit provides config, logger, database, the outbox and storage. */
@Module({
  controllers: [IdentityController],
  providers: [
    UserRepository,
    SessionRepository,
    TokenRepository,
    PasswordResetRepository,
    StorageRepository,
    ImageUploadRepository,
    MailRepository,
    EmailLinkRepository,
    PasswordHasher,
    SessionService,
    MailService,
    EmailVerificationService,
    AuthService,
    UserService,
    ImageUploadService,
    TokenService,
    PlaceholderService,
    SocialMirrorService,
    XSignInService,
  ],
})
export class IdentityModule {}

import { CreateEventBusTables1763700000000 } from '@clipit/service-kit';
import { EmailVerificationEntity, PasswordResetRequestEntity } from './entities/email-link.entity.js';
import { ImageUploadEntity } from './entities/image-upload.entity.js';
import { MailEntity } from './entities/mail.entity.js';
import { PasswordResetEntity } from './entities/password-reset.entity.js';
import { SessionEntity } from './entities/session.entity.js';
import { TokenEntity } from './entities/token.entity.js';
import { UserEntity } from './entities/user.entity.js';
import { CreateIdentityTables1763800000000 } from './migrations/1763800000000-create-identity-tables.js';
import { AddSocialRevisions1764500000000 } from './migrations/1764500000000-add-social-revisions.js';
import { AddTierRevision1765000000000 } from './migrations/1765000000000-add-tier-revision.js';
import { CreateImageUploads1765100000000 } from './migrations/1765100000000-create-image-uploads.js';
import { AddXLink1765200000000 } from './migrations/1765200000000-add-x-link.js';
import { CreateMailQueue1765300000000 } from './migrations/1765300000000-create-mail-queue.js';
import { AddEmailLinks1765400000000 } from './migrations/1765400000000-add-email-links.js';
import { AddWalletGuard1765500000000 } from './migrations/1765500000000-add-wallet-guard.js';
import { MatchResetsAfterAnswer1765600000000 } from './migrations/1765600000000-match-resets-after-answer.js';

export const identityEntities = [
  UserEntity,
  SessionEntity,
  TokenEntity,
  PasswordResetEntity,
  ImageUploadEntity,
  MailEntity,
  EmailVerificationEntity,
  PasswordResetRequestEntity,
];

/** In order; the kit's outbox/inbox tables come first. */
export const identityMigrations = [
  CreateEventBusTables1763700000000,
  CreateIdentityTables1763800000000,
  AddSocialRevisions1764500000000,
  AddTierRevision1765000000000,
  CreateImageUploads1765100000000,
  AddXLink1765200000000,
  CreateMailQueue1765300000000,
  AddEmailLinks1765400000000,
  AddWalletGuard1765500000000,
  MatchResetsAfterAnswer1765600000000,
];

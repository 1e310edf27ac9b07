import { identityContract } from '@clipit/contracts';
import {
  bootstrapService,
  defineService,
  every,
  packageVersion,
  resource,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import { storageResource } from '@clipit/storage';
import { IdentityModule } from './app.module.js';
import { identityConfigShape, configProblem, type IdentityConfig } from './config.js';
import { identityEntities, identityMigrations } from './database.js';
import { MAIL_SENDER, openMailSender, type MailSender } from './mail/mail-sender.js';
import { AuthService } from './services/auth.service.js';
import { ImageUploadService } from './services/image-upload.service.js';
import { MailService } from './services/mail.service.js';
import { SessionService } from './services/session.service.js';
import { SocialMirrorService } from './services/social-mirror.service.js';

/** identity: users, sessions, tokens and placeholder streamers, served over gRPC (identity.v1.IdentityService). */
export const identityService = defineService(identityConfigShape, {
  name: 'identity',
  version: packageVersion(import.meta.url),
  database: { entities: identityEntities, migrations: identityMigrations },
  grpc: identityContract,
  startProblem: configProblem,
  resources: [
    storageResource,
    // The mail port (ADR 0031): nothing is sent at start-up, so a relay that is away only delays the queue.
    resource<IdentityConfig, MailSender>('mail', MAIL_SENDER, ({ config, logger }) => openMailSender(config, logger), {
      close: (sender) => sender.close(),
    }),
  ],
  // isLive and nextStreamTime are social's; identity mirrors them so every user it answers carries them (ADR 0021).
  events: ({ get }) => ({
    'social.live-changed': (event, tx) => get(SocialMirrorService).onLiveChanged(event.data, tx),
    'social.stream-time-changed': (event, tx) => get(SocialMirrorService).onStreamTimeChanged(event.data, tx),
    'rewards.standing-changed': (event, tx) => get(SocialMirrorService).onStandingChanged(event.data, tx),
  }),
  workers: [
    every(
      'session sweep',
      (c) => c.SESSION_SWEEP_INTERVAL_SECONDS * 1000,
      async ({ get, logger }) => {
        const deleted = await get(SessionService).sweep();
        if (deleted > 0) logger.info({ deleted }, 'expired sessions swept');
      },
    ),
    // Reset requests are matched after their answer (ADR 0032), so a link mailed is delivered in the same round.
    every(
      'mail delivery',
      (c) => c.MAIL_DELIVERY_INTERVAL_MS,
      async ({ get }) => {
        await get(AuthService).matchPendingResets();
        await get(MailService).deliverDue();
      },
    ),
    every(
      'image upload sweep',
      (c) => c.IMAGE_UPLOAD_SWEEP_INTERVAL_SECONDS * 1000,
      async ({ get, logger }) => {
        const swept = await get(ImageUploadService).sweepExpired();
        if (swept > 0) logger.info({ swept }, 'expired image uploads swept');
      },
    ),
  ],
  module: IdentityModule,
});

export type IdentityApp = ServiceApp<IdentityConfig>;
export type IdentityConfigOverrides = ConfigOverrides<typeof identityConfigShape>;

export const bootstrapIdentity = (overrides: IdentityConfigOverrides = {}): Promise<IdentityApp> =>
  bootstrapService(identityService, overrides);

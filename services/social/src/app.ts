import { identityContract, socialContract } from '@clipit/contracts';
import { bootstrapService, defineService, grpcClient, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { SocialModule } from './app.module.js';
import { socialConfigShape, type SocialConfig } from './config.js';
import { socialEntities, socialMigrations } from './database.js';
import { IDENTITY_CLIENT } from './ports.js';
import { ProjectionsService } from './services/projections.service.js';

/**
 * social: follows, clip likes, streamers' live state and next stream time, served over gRPC
 * (social.v1.SocialService). Keeps the people and clips it needs as read models fed by identity's and
 * submissions' events; publishes every change through its outbox.
 */
export const socialService = defineService(socialConfigShape, {
  name: 'social',
  version: packageVersion(import.meta.url),
  database: { entities: socialEntities, migrations: socialMigrations },
  grpc: socialContract,
  // Asked only about a user whose event has not arrived yet: reported, not a reason to leave traffic.
  clients: [grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, readiness: 'reported' })],
  events: ({ get }) => ({
    'user.registered': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'user.updated': (event, tx) => get(ProjectionsService).onUser(event.data, tx),
    'submission.created': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.approved': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.rejected': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.feed-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    'submission.video-changed': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
    // Carries the newest snapshot: keeps the clips' revision current so later events order right.
    'metrics.updated': (event, tx) => get(ProjectionsService).onSubmission(event.data, tx),
  }),
  module: SocialModule,
});

export type SocialApp = ServiceApp<SocialConfig>;
export type SocialConfigOverrides = ConfigOverrides<typeof socialConfigShape>;

export const bootstrapSocial = (overrides: SocialConfigOverrides = {}): Promise<SocialApp> => bootstrapService(socialService, overrides);

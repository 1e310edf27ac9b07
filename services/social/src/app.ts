import { socialContract } from '@clipit/contracts';
import { bootstrapService, defineService, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { SocialModule } from './app.module.js';
import { socialConfigShape, type SocialConfig } from './config.js';
import { socialEntities, socialMigrations } from './database.js';

/** social: Follows, clip likes, streamers&#39; live state and next stream time. Served over gRPC (social.v1.SocialService). */
export const socialService = defineService(socialConfigShape, {
  name: 'social',
  version: packageVersion(import.meta.url),
  database: { entities: socialEntities, migrations: socialMigrations },
  grpc: socialContract,
  module: SocialModule,
});

export type SocialApp = ServiceApp<SocialConfig>;
export type SocialConfigOverrides = ConfigOverrides<typeof socialConfigShape>;

export const bootstrapSocial = (overrides: SocialConfigOverrides = {}): Promise<SocialApp> => bootstrapService(socialService, overrides);

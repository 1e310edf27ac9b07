import { developerContract } from '@clipit/contracts';
import { bootstrapService, defineService, packageVersion, type ConfigOverrides, type ServiceApp } from '@clipit/service-kit';
import { DeveloperModule } from './app.module.js';
import { developerConfigShape, type DeveloperConfig } from './config.js';
import { developerEntities, developerMigrations } from './database.js';

/** developer: Developers' access: API keys for the versioned read API and signed webhook endpoints with their delivery log. Served over gRPC (developer.v1.DeveloperService). */
export const developerService = defineService(developerConfigShape, {
  name: 'developer',
  version: packageVersion(import.meta.url),
  database: { entities: developerEntities, migrations: developerMigrations },
  grpc: developerContract,
  module: DeveloperModule,
});

export type DeveloperApp = ServiceApp<DeveloperConfig>;
export type DeveloperConfigOverrides = ConfigOverrides<typeof developerConfigShape>;

export const bootstrapDeveloper = (overrides: DeveloperConfigOverrides = {}): Promise<DeveloperApp> =>
  bootstrapService(developerService, overrides);

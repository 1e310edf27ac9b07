import { databaseConfigShape, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable developer reads, with a default that works on one machine. Validated once at boot. */
export const developerConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('DEVELOPER', { grpcPort: 50058, httpPort: 8110 }),
  ...databaseConfigShape('DEVELOPER', 'clipit_developer'),
};

export type DeveloperConfig = ConfigOf<typeof developerConfigShape>;

export function loadDeveloperConfig(source: NodeJS.ProcessEnv = process.env): DeveloperConfig {
  return loadConfig(developerConfigShape, source);
}

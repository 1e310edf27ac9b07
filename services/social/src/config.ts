import { databaseConfigShape, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable social reads, with a default that works on one machine. Validated once at boot. */
export const socialConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('SOCIAL', { grpcPort: 50055, httpPort: 8106 }),
  ...databaseConfigShape('SOCIAL', 'clipit_social'),
};

export type SocialConfig = ConfigOf<typeof socialConfigShape>;

export function loadSocialConfig(source: NodeJS.ProcessEnv = process.env): SocialConfig {
  return loadConfig(socialConfigShape, source);
}

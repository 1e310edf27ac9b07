import { databaseConfigShape, env, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable social reads, with a default that works on one machine. Validated once at boot. */
export const socialConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('SOCIAL', { grpcPort: 50055, httpPort: 8106 }),
  ...databaseConfigShape('SOCIAL', 'clipit_social'),
  /** identity's gRPC address (a user whose user.registered event has not arrived yet). */
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
};

export type SocialConfig = ConfigOf<typeof socialConfigShape>;

export function loadSocialConfig(source: NodeJS.ProcessEnv = process.env): SocialConfig {
  return loadConfig(socialConfigShape, source);
}

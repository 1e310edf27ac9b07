import { databaseConfigShape, loadConfig, serverConfigShape, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';

/** Every variable campaigns reads, with a default that works on one machine. Validated once at boot. */
export const campaignsConfigShape = {
  ...sharedConfigShape,
  ...serverConfigShape('CAMPAIGNS', { grpcPort: 50054, httpPort: 8105 }),
  ...databaseConfigShape('CAMPAIGNS', 'clipit_campaigns'),
};

export type CampaignsConfig = ConfigOf<typeof campaignsConfigShape>;

export function loadCampaignsConfig(source: NodeJS.ProcessEnv = process.env): CampaignsConfig {
  return loadConfig(campaignsConfigShape, source);
}

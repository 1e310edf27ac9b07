import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { campaignsConfigShape, loadCampaignsConfig } from './config.js';

describe('campaigns configuration', () => {
  itAgreesWithEnvExample(campaignsConfigShape, loadCampaignsConfig);

  it('names a bad variable', () => {
    expect(() => loadCampaignsConfig({ CAMPAIGNS_GRPC_PORT: 'seventy' })).toThrow(/CAMPAIGNS_GRPC_PORT/);
  });
});

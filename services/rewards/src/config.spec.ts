import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { rewardsConfigShape, loadRewardsConfig } from './config.js';

describe('rewards configuration', () => {
  itAgreesWithEnvExample(rewardsConfigShape, loadRewardsConfig);

  it('names a bad variable', () => {
    expect(() => loadRewardsConfig({ REWARDS_GRPC_PORT: 'seventy' })).toThrow(/REWARDS_GRPC_PORT/);
  });
});

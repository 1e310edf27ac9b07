import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { socialConfigShape, loadSocialConfig } from './config.js';

describe('social configuration', () => {
  itAgreesWithEnvExample(socialConfigShape, loadSocialConfig);

  it('names a bad variable', () => {
    expect(() => loadSocialConfig({ SOCIAL_GRPC_PORT: 'seventy' })).toThrow(/SOCIAL_GRPC_PORT/);
  });
});

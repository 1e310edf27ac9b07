import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { developerConfigShape, loadDeveloperConfig } from './config.js';

describe('developer configuration', () => {
  itAgreesWithEnvExample(developerConfigShape, loadDeveloperConfig);

  it('names a bad variable', () => {
    expect(() => loadDeveloperConfig({ DEVELOPER_GRPC_PORT: 'seventy' })).toThrow(/DEVELOPER_GRPC_PORT/);
  });
});

import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { DEVELOPMENT_WEBHOOK_SECRET_KEY } from '@clipit/contracts';
import { developerConfigShape, loadDeveloperConfig, productionConfigProblem } from './config.js';

describe('developer configuration', () => {
  itAgreesWithEnvExample(developerConfigShape, loadDeveloperConfig);

  it('names a bad variable', () => {
    expect(() => loadDeveloperConfig({ DEVELOPER_GRPC_PORT: 'seventy' })).toThrow(/DEVELOPER_GRPC_PORT/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => loadDeveloperConfig({ WEBHOOK_SECRET_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('refuses in production the published development key and loopback endpoints, and nothing in development', () => {
    const ownKey = Buffer.alloc(32, 7).toString('base64');
    expect(
      productionConfigProblem({
        NODE_ENV: 'development',
        WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_SECRET_KEY,
        WEBHOOK_ALLOW_LOOPBACK: true,
      }),
    ).toBeUndefined();
    expect(
      productionConfigProblem({
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_SECRET_KEY,
        WEBHOOK_ALLOW_LOOPBACK: false,
      }),
    ).toMatch(/WEBHOOK_SECRET_KEY/);
    expect(productionConfigProblem({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: ownKey, WEBHOOK_ALLOW_LOOPBACK: true })).toMatch(
      /WEBHOOK_ALLOW_LOOPBACK/,
    );
    expect(productionConfigProblem({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: ownKey, WEBHOOK_ALLOW_LOOPBACK: false })).toBeUndefined();
  });
});

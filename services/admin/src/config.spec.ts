import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import {
  adminConfigShape,
  DEVELOPMENT_ADMIN_PASSWORD,
  DEVELOPMENT_TOKEN_SECRET,
  loadAdminConfig,
  productionConfigProblem,
} from './config.js';

describe('admin configuration', () => {
  itAgreesWithEnvExample(adminConfigShape, loadAdminConfig);

  it('names a bad variable', () => {
    expect(() => loadAdminConfig({ ADMIN_GRPC_PORT: 'seventy' })).toThrow(/ADMIN_GRPC_PORT/);
    expect(() => loadAdminConfig({ ADMIN_TOKEN_SECRET: 'short' })).toThrow(/ADMIN_TOKEN_SECRET/);
    expect(() => loadAdminConfig({ ADMIN_HEALTH_TARGETS: 'feed=nowhere' })).toThrow(
      /ADMIN_HEALTH_TARGETS.*"feed=nowhere" must be name=http/,
    );
    expect(() => loadAdminConfig({ ADMIN_SYSTEM_METRICS_INTERVAL_MS: '10' })).toThrow(/ADMIN_SYSTEM_METRICS_INTERVAL_MS/);
  });

  it('runs anywhere but production with the development password, and refuses it in production', () => {
    const good = { ADMIN_PASSWORD: 'a long production password', ADMIN_TOKEN_SECRET: 'x'.repeat(40) };
    expect(
      productionConfigProblem({
        NODE_ENV: 'development',
        ADMIN_PASSWORD: DEVELOPMENT_ADMIN_PASSWORD,
        ADMIN_TOKEN_SECRET: DEVELOPMENT_TOKEN_SECRET,
      }),
    ).toBeUndefined();
    expect(productionConfigProblem({ NODE_ENV: 'production', ...good })).toBeUndefined();
    expect(productionConfigProblem({ NODE_ENV: 'production', ...good, ADMIN_PASSWORD: DEVELOPMENT_ADMIN_PASSWORD })).toMatch(
      /ADMIN_PASSWORD is the development default/,
    );
    expect(productionConfigProblem({ NODE_ENV: 'production', ...good, ADMIN_PASSWORD: 'short' })).toMatch(/at least 12 characters/);
    expect(productionConfigProblem({ NODE_ENV: 'production', ...good, ADMIN_TOKEN_SECRET: DEVELOPMENT_TOKEN_SECRET })).toMatch(
      /ADMIN_TOKEN_SECRET is the development default/,
    );
    expect(productionConfigProblem({ NODE_ENV: 'production', ...good, ADMIN_TOKEN_SECRET: 'y'.repeat(20) })).toMatch(
      /at least 32 characters/,
    );
  });
});

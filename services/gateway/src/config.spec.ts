import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@clipit/service-kit';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { gatewayConfigShape, loadGatewayConfig } from './config.js';

describe('gateway config', () => {
  it('has defaults that work on one machine', () => {
    const config = loadGatewayConfig({}, {});
    expect(config).toMatchObject({
      GATEWAY_HOST: '0.0.0.0',
      GATEWAY_PORT: 8080,
      IDENTITY_GRPC_URL: '127.0.0.1:50051',
      PUBLIC_ORIGIN: undefined,
      COOKIE_SECURE: 'auto',
      TRUST_PROXY: false,
      RATE_LIMIT_WINDOW_SECONDS: 900,
      RATE_LIMIT_MAX_PER_IP: 30,
      RATE_LIMIT_MAX_PER_HANDLE: 10,
      SUBMISSION_LIMIT_PER_USER: 20,
      SUBMISSION_LIMIT_PER_IP: 100,
      BODY_LIMIT_BYTES: 1048576,
      PROFILE_IMAGE_MAX_BYTES: 5242880,
      STORAGE_DRIVER: 'fs',
      STORAGE_FS_ROOT: '.data/storage',
      REDIS_KEY_PREFIX: 'clipit:',
    });
  });

  it('lets overrides win over the environment, and accepts port 0', () => {
    expect(loadGatewayConfig({ GATEWAY_PORT: 0 }, { GATEWAY_PORT: '9000' }).GATEWAY_PORT).toBe(0);
  });

  it('reads TRUST_PROXY as off, on, a hop count or proxy addresses', () => {
    expect(loadGatewayConfig({}, { TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadGatewayConfig({}, { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const hops = loadGatewayConfig({}, { TRUST_PROXY: '2' }).TRUST_PROXY as (a: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
  });

  it('normalizes PUBLIC_ORIGIN and refuses one with a path', () => {
    expect(loadGatewayConfig({}, { PUBLIC_ORIGIN: 'https://Clipit.Example' }).PUBLIC_ORIGIN).toBe('https://clipit.example');
    expect(() => loadGatewayConfig({}, { PUBLIC_ORIGIN: 'https://clipit.example/app' })).toThrow(ConfigError);
  });

  it('names every bad variable', () => {
    try {
      loadGatewayConfig({}, { COOKIE_SECURE: 'maybe', IDENTITY_GRPC_URL: 'identity', TRUST_PROXY: 'sometimes' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/COOKIE_SECURE="maybe" is invalid/);
      expect((err as Error).message).toMatch(/IDENTITY_GRPC_URL="identity" is invalid/);
      expect((err as Error).message).toMatch(/TRUST_PROXY="sometimes" is invalid/);
    }
  });
});

describe('gateway configuration and deploy/.env.example', () => {
  itAgreesWithEnvExample(gatewayConfigShape, (source) => loadGatewayConfig({}, source));
});

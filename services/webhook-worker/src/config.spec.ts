import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_WEBHOOK_SECRET_KEY } from '@clipit/contracts';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { isSealingKey, loadWebhookWorkerConfig, productionConfigProblem, shutdownGraceMs, webhookWorkerConfigShape } from './config.js';

describe('webhook-worker configuration', () => {
  itAgreesWithEnvExample(webhookWorkerConfigShape, loadWebhookWorkerConfig);

  it('defaults to the development key, a 10 s attempt and no loopback deliveries', () => {
    expect(loadWebhookWorkerConfig({})).toMatchObject({
      NODE_ENV: 'development',
      WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_SECRET_KEY,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_ALLOW_LOOPBACK: false,
      WEBHOOK_WORKER_HTTP_PORT: 8111,
      WEBHOOK_WORKER_CONCURRENCY: 10,
    });
    expect(loadWebhookWorkerConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
  });

  it('names a bad variable', () => {
    expect(() => loadWebhookWorkerConfig({ WEBHOOK_WORKER_CONCURRENCY: '0' })).toThrow(/WEBHOOK_WORKER_CONCURRENCY="0" is invalid/);
    expect(() => loadWebhookWorkerConfig({ WEBHOOK_TIMEOUT_MS: '50' })).toThrow(/WEBHOOK_TIMEOUT_MS="50" is invalid/);
    expect(() => loadWebhookWorkerConfig({ WEBHOOK_ALLOW_LOOPBACK: 'maybe' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK="maybe" is invalid/);
  });

  it('takes only the base64 of 32 bytes as the sealing key, in every environment', () => {
    const key = randomBytes(32);
    expect(loadWebhookWorkerConfig({ WEBHOOK_SECRET_KEY: key.toString('base64') }).WEBHOOK_SECRET_KEY).toBe(key.toString('base64'));
    expect(loadWebhookWorkerConfig({ WEBHOOK_SECRET_KEY: key.toString('base64url') }).WEBHOOK_SECRET_KEY).toBe(key.toString('base64url'));
    for (const bad of [
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      'not a key at all, not base64 !!',
      key.toString('hex'),
    ])
      expect(() => loadWebhookWorkerConfig({ WEBHOOK_SECRET_KEY: bad })).toThrow(
        /WEBHOOK_SECRET_KEY=.* is invalid: must be the base64 of 32 bytes/,
      );
    expect(isSealingKey(DEVELOPMENT_WEBHOOK_SECRET_KEY)).toBe(true);
  });

  it('refuses, in production only, the development key, a key that is not 32 bytes, and loopback deliveries', () => {
    const own = randomBytes(32).toString('base64');
    const production = { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: own, WEBHOOK_ALLOW_LOOPBACK: false };
    expect(productionConfigProblem(production)).toBeUndefined();
    expect(productionConfigProblem({ ...production, WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_SECRET_KEY })).toMatch(
      /WEBHOOK_SECRET_KEY is the development default/,
    );
    expect(productionConfigProblem({ ...production, WEBHOOK_SECRET_KEY: randomBytes(24).toString('base64') })).toMatch(
      /WEBHOOK_SECRET_KEY must be the base64 of 32 bytes/,
    );
    expect(productionConfigProblem({ ...production, WEBHOOK_ALLOW_LOOPBACK: true })).toMatch(/WEBHOOK_ALLOW_LOOPBACK is for tests only/);
    expect(productionConfigProblem(loadWebhookWorkerConfig({}))).toBeUndefined();
    expect(productionConfigProblem(loadWebhookWorkerConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }))).toBeUndefined();
    expect(productionConfigProblem(loadWebhookWorkerConfig({ NODE_ENV: 'production' }))).toMatch(/development default/);
  });

  it('gives the process entry the drain time plus ten seconds to close', () => {
    expect(shutdownGraceMs({})).toBe(20_000);
    expect(shutdownGraceMs({ WEBHOOK_WORKER_DRAIN_SECONDS: '5' })).toBe(15_000);
  });
});

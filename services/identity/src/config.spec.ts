import { itAgreesWithEnvExample } from '@clipit/testing';
import { configProblem, defaultHashConcurrency, identityConfigShape, loadIdentityConfig } from './config.js';

/** One hash at a time: below any thread pool, so these specs see only the rule they name. */
const one = { PASSWORD_HASH_CONCURRENCY: 1 } as const;

describe('identity configuration', () => {
  itAgreesWithEnvExample(identityConfigShape, loadIdentityConfig);

  it("hashes passwords at production's cost unless told otherwise, between 10 and 20", () => {
    expect(loadIdentityConfig({}).PASSWORD_HASH_COST).toBe(15);
    expect(loadIdentityConfig({ PASSWORD_HASH_COST: '10' }).PASSWORD_HASH_COST).toBe(10);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_COST: '21' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('refuses a cost below 15 in production only', () => {
    const smtp = { MAIL_DRIVER: 'smtp', SMTP_HOST: 'relay.internal' } as const;
    expect(
      configProblem({ ...one, NODE_ENV: 'development', PASSWORD_HASH_COST: 10, MAIL_DRIVER: 'outbox', SMTP_HOST: '' }),
    ).toBeUndefined();
    expect(configProblem({ ...one, NODE_ENV: 'production', PASSWORD_HASH_COST: 15, ...smtp })).toBeUndefined();
    expect(configProblem({ ...one, NODE_ENV: 'production', PASSWORD_HASH_COST: 14, ...smtp })).toBe(
      'PASSWORD_HASH_COST must be at least 15 in production (it is 14)',
    );
  });

  it('writes mail to the development outbox unless told to send it, and sends it in production', () => {
    const config = loadIdentityConfig({});
    expect({ driver: config.MAIL_DRIVER, dir: config.MAIL_OUTBOX_DIR, site: config.PUBLIC_SITE_URL }).toEqual({
      driver: 'outbox',
      dir: '.data/mail',
      site: 'http://localhost:8080',
    });
    expect(loadIdentityConfig({ PUBLIC_SITE_URL: 'https://clipit.example/' }).PUBLIC_SITE_URL).toBe('https://clipit.example');
    expect(() => loadIdentityConfig({ PUBLIC_SITE_URL: 'clipit.example' })).toThrow(/PUBLIC_SITE_URL/);
    expect(configProblem({ ...one, NODE_ENV: 'production', PASSWORD_HASH_COST: 15, MAIL_DRIVER: 'outbox', SMTP_HOST: '' })).toBe(
      'MAIL_DRIVER must be smtp in production (the outbox driver only writes mail to a local folder)',
    );
    expect(configProblem({ ...one, NODE_ENV: 'development', PASSWORD_HASH_COST: 15, MAIL_DRIVER: 'smtp', SMTP_HOST: '' })).toBe(
      'MAIL_DRIVER=smtp needs SMTP_HOST (the relay identity sends mail through)',
    );
  });

  it("runs as many hashes at once as there are cores, leaving libuv's thread pool at least one thread (ADR 0044)", () => {
    expect(defaultHashConcurrency(2, 4)).toBe(2);
    expect(defaultHashConcurrency(16, 4)).toBe(3);
    expect(defaultHashConcurrency(16, 9)).toBe(8);
    expect(defaultHashConcurrency(1, 1)).toBe(1);
    expect(loadIdentityConfig({ PASSWORD_HASH_CONCURRENCY: '1' }).PASSWORD_HASH_CONCURRENCY).toBe(1);
    expect(loadIdentityConfig({}).PASSWORD_HASH_BUDGET_MS).toBe(2500);
    expect(loadIdentityConfig({}).PASSWORD_HASH_DEADLINE_MARGIN_MS).toBe(1000);
    expect(loadIdentityConfig({ PASSWORD_HASH_DEADLINE_MARGIN_MS: '0' }).PASSWORD_HASH_DEADLINE_MARGIN_MS).toBe(0);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_DEADLINE_MARGIN_MS: '-1' })).toThrow(/PASSWORD_HASH_DEADLINE_MARGIN_MS/);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
    const dev = { NODE_ENV: 'development', PASSWORD_HASH_COST: 10, MAIL_DRIVER: 'outbox', SMTP_HOST: '' } as const;
    expect(configProblem({ ...dev, PASSWORD_HASH_CONCURRENCY: 3 }, 4)).toBeUndefined();
    expect(configProblem({ ...dev, PASSWORD_HASH_CONCURRENCY: 4 }, 4)).toBe(
      'PASSWORD_HASH_CONCURRENCY must be below UV_THREADPOOL_SIZE (4), which also serves file and DNS work: lower it, or raise UV_THREADPOOL_SIZE',
    );
  });
});

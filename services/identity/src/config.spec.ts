import { itAgreesWithEnvExample } from '@clipit/testing';
import { configProblem, identityConfigShape, loadIdentityConfig } from './config.js';

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
    expect(configProblem({ NODE_ENV: 'development', PASSWORD_HASH_COST: 10, MAIL_DRIVER: 'outbox', SMTP_HOST: '' })).toBeUndefined();
    expect(configProblem({ NODE_ENV: 'production', PASSWORD_HASH_COST: 15, ...smtp })).toBeUndefined();
    expect(configProblem({ NODE_ENV: 'production', PASSWORD_HASH_COST: 14, ...smtp })).toBe(
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
    expect(configProblem({ NODE_ENV: 'production', PASSWORD_HASH_COST: 15, MAIL_DRIVER: 'outbox', SMTP_HOST: '' })).toBe(
      'MAIL_DRIVER must be smtp in production (the outbox driver only writes mail to a local folder)',
    );
    expect(configProblem({ NODE_ENV: 'development', PASSWORD_HASH_COST: 15, MAIL_DRIVER: 'smtp', SMTP_HOST: '' })).toBe(
      'MAIL_DRIVER=smtp needs SMTP_HOST (the relay identity sends mail through)',
    );
  });
});

import { configAgainstEnvExample } from '@clipit/testing';
import { identityConfigShape, loadIdentityConfig } from './config.js';

describe('identity configuration', () => {
  it('lists every variable it reads in deploy/.env.example', () => {
    expect(configAgainstEnvExample(identityConfigShape, loadIdentityConfig).unlisted).toEqual([]);
  });

  it('has the defaults deploy/.env.example gives', () => {
    const { fromExample, fromDefaults } = configAgainstEnvExample(identityConfigShape, loadIdentityConfig);
    expect(fromExample).toEqual(fromDefaults);
  });
});

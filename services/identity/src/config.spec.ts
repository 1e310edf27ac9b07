import { itAgreesWithEnvExample } from '@clipit/testing';
import { identityConfigShape, loadIdentityConfig, productionConfigProblem } from './config.js';

describe('identity configuration', () => {
  itAgreesWithEnvExample(identityConfigShape, loadIdentityConfig);

  it("hashes passwords at production's cost unless told otherwise, between 10 and 20", () => {
    expect(loadIdentityConfig({}).PASSWORD_HASH_COST).toBe(15);
    expect(loadIdentityConfig({ PASSWORD_HASH_COST: '10' }).PASSWORD_HASH_COST).toBe(10);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadIdentityConfig({ PASSWORD_HASH_COST: '21' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('refuses a cost below 15 in production only', () => {
    expect(productionConfigProblem({ NODE_ENV: 'development', PASSWORD_HASH_COST: 10 })).toBeUndefined();
    expect(productionConfigProblem({ NODE_ENV: 'production', PASSWORD_HASH_COST: 15 })).toBeUndefined();
    expect(productionConfigProblem({ NODE_ENV: 'production', PASSWORD_HASH_COST: 14 })).toBe('PASSWORD_HASH_COST must be at least 15 in production (it is 14)');
  });
});

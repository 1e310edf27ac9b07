import { itAgreesWithEnvExample } from '@clipit/testing';
import { identityConfigShape, loadIdentityConfig } from './config.js';

describe('identity configuration', () => {
  itAgreesWithEnvExample(identityConfigShape, loadIdentityConfig);
});

// Jest injects its test globals into every spec at runtime; this types them from @jest/globals so
// specs may use describe/it/expect without importing them (importing them from '@jest/globals' works
// as well). The `jest` object is deliberately absent: in ESM mode it is not a global, import it.
import type * as jestGlobals from '@jest/globals';

declare global {
  const describe: typeof jestGlobals.describe;
  const fdescribe: typeof jestGlobals.fdescribe;
  const xdescribe: typeof jestGlobals.xdescribe;
  const it: typeof jestGlobals.it;
  const fit: typeof jestGlobals.fit;
  const xit: typeof jestGlobals.xit;
  const test: typeof jestGlobals.test;
  const xtest: typeof jestGlobals.xtest;
  const expect: typeof jestGlobals.expect;
  const beforeAll: typeof jestGlobals.beforeAll;
  const beforeEach: typeof jestGlobals.beforeEach;
  const afterAll: typeof jestGlobals.afterAll;
  const afterEach: typeof jestGlobals.afterEach;
}

export {};

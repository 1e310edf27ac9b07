// Jest runs in ESM mode (NestJS 12 is ESM-only) with swc keeping decorator metadata.
// Three projects, each with its own home: unit specs beside the code, integration tests against the
// real Postgres/NATS/Redis under test/integration, and journeys through the gateway under e2e/.
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    // Workspace libraries resolve to their sources so tests never need a build first.
    '^@clipit/(contracts|service-kit|storage|testing)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
};

export default {
  // Integration and end-to-end tests start real servers; unit specs finish far below this.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services}/*/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/integration/**/*.int.spec.ts'],
      globalSetup: "<rootDir>/libs/testing/jest/global-setup.mjs",
      globalTeardown: "<rootDir>/libs/testing/jest/global-teardown.mjs",
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e.spec.ts'],
      globalSetup: "<rootDir>/libs/testing/jest/global-setup.mjs",
      globalTeardown: "<rootDir>/libs/testing/jest/global-teardown.mjs",
    },
  ],
};

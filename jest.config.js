// Jest runs in ESM mode (NestJS 12 is ESM-only) with swc keeping decorator metadata.
// Projects, each with its own home: unit specs beside the code, integration tests against the real
// Postgres/NATS/Redis under test/integration, journeys through the gateway under e2e/, and the site in
// headless Chromium under e2e/browser/.
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

// Browser UI (libs/ui): the same swc transform, with JSX (React's automatic runtime) for .tsx.
const [swcJest, swcOptions] = swc;
const swcTsx = [
  swcJest,
  {
    ...swcOptions,
    jsc: {
      ...swcOptions.jsc,
      parser: { ...swcOptions.jsc.parser, tsx: true },
      transform: { ...swcOptions.jsc.transform, react: { runtime: 'automatic' } },
    },
  },
];

const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    // Workspace libraries resolve to their sources so tests never need a build first.
    '^@clipit/(contracts|service-kit|storage|media|media-queue|worker-kit|testing|field-rules|fingerprint|telemetry)$':
      '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
};

export default {
  // Integration and end-to-end tests start real servers; unit specs finish far below this.
  testTimeout: 60000,
  // Both cores (Jest's default leaves one idle): the files wait on servers, ffmpeg and Chromium much of the
  // time. A worker that kept more than this after a file is replaced by a fresh one, so no file's leftovers
  // weigh on the files after it.
  maxWorkers: '100%',
  workerIdleMemoryLimit: '1536MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services}/*/src/**/*.spec.ts'],
      // Browser UI specs run in the ui project (jsdom), never under Node.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/libs/ui/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/integration/**/*.int.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/jest/global-setup.mjs',
      globalTeardown: '<rootDir>/libs/testing/jest/global-teardown.mjs',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/jest/global-setup.mjs',
      globalTeardown: '<rootDir>/libs/testing/jest/global-teardown.mjs',
    },
    {
      // The site in headless Chromium against the real platform (the web apps are built first if stale).
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/e2e/browser/**/*.browser.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/jest/browser-global-setup.mjs',
      globalTeardown: '<rootDir>/libs/testing/jest/global-teardown.mjs',
    },
    {
      // React components and browser helpers, in jsdom.
      displayName: 'ui',
      testEnvironment: 'jsdom',
      extensionsToTreatAsEsm: ['.ts', '.tsx'],
      transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx },
      moduleNameMapper: common.moduleNameMapper,
      testMatch: ['<rootDir>/libs/ui/src/**/*.spec.{ts,tsx}', '<rootDir>/libs/router/src/**/*.spec.tsx'],
      setupFilesAfterEnv: ['<rootDir>/libs/ui/jest.setup.ts'],
    },
    {
      // The web apps' screens and their pure logic (frontends/<app>/src), in jsdom like the ui project.
      displayName: 'web',
      testEnvironment: 'jsdom',
      extensionsToTreatAsEsm: ['.ts', '.tsx'],
      transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx },
      moduleNameMapper: { ...common.moduleNameMapper, '\\.css$': '<rootDir>/frontends/jest-style-stub.cjs' },
      testMatch: ['<rootDir>/frontends/*/src/**/*.spec.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/libs/ui/jest.setup.ts', '<rootDir>/frontends/jest.setup.mjs'],
    },
  ],
};

// ESLint flat config for the whole workspace. `npm run lint` runs ESLint (`eslint --max-warnings=0 .`) and
// then oxlint (.oxlintrc.json), which holds the rules that need type information: every promise awaited,
// returned or voided, no promise where a void or boolean callback is expected, no await on a non-thenable,
// switches that cover every case. It checks each .ts file against the tsconfig that owns it with TypeScript 7,
// the native compiler of the type-check; here, typescript-eslint's type information (TypeScript 6's checker
// over every project) cost about four times the CPU of the rest of lint together (ADR 0030).
//
// - TypeScript and plain JavaScript (.js/.mjs/.cjs: configs, scripts/, deploy/) are linted here without type
//   information.
// - @nx/enforce-module-boundaries enforces the dependency rules between projects (tags live in each
//   package.json under "nx.tags"); no-restricted-imports is a second, graph-free safety net.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createProjectGraphAsync } from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// @nx/enforce-module-boundaries only reads the project graph Nx cached under .nx/workspace-data and
// silently skips every check when there is none (fresh clone, CI) or misses projects added since it
// was written. Compute it once per ESLint process so the rule always sees the current workspace.
// In-process (no daemon) unless the caller asked for the daemon explicitly.
process.env.NX_DAEMON ??= 'false';
await createProjectGraphAsync({ exitOnError: false });

const TS_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];
const JS_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs'];
// Test code: unit specs beside the sources, integration tests under <project>/test/, journeys under e2e/.
const TEST_FILES = ['**/*.{spec,test}.{ts,tsx}', '{libs,services,frontends}/*/test/**', 'e2e/**'];
// Code that may use the type:testing library: test code and developer scripts (never deploy/ or src/).
const TESTING_ALLOWED = [...TEST_FILES, 'scripts/**'];

// Which projects may depend on which, by tag. Every project must carry tags matched by at least one
// source tag below, otherwise it may not depend on any workspace project at all.
//   type:service   services/*      - deployable back-end services
//   type:lib       libs/*          - shared libraries (contracts, service-kit, storage, media-queue)
//   type:testing   libs/testing    - test infrastructure, for test code only
//   type:frontend  frontends/*     - deployable front ends (the shell and the federated remotes)
//   type:ui        UI libraries    - browser component libraries
//   type:tooling   libs/frontend-build - build presets, for build configs and scripts only (never shipped)
//   type:workspace the root project: e2e/, scripts/, deploy/ and root config files
//   platform:node / platform:browser - where a library can run; a library usable in both carries both
//   scope:shared   what any project may use; scope:<service> - that service's alone (libs/media,
//                  ffmpeg, is scope:media: the media worker's)
const productionConstraints = [
  // A service never imports another service (services talk over gRPC/NATS), only shared libraries.
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
  // Libraries never import services, front ends or test infrastructure.
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  // Test support may render the UI kit (component tests wrap screens in its providers).
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:ui', 'type:testing'] },
  // Front ends never import services; only UI libraries and libraries that run in a browser.
  { sourceTag: 'type:frontend', onlyDependOnLibsWithTags: ['type:ui', 'type:lib'] },
  { sourceTag: 'type:frontend', onlyDependOnLibsWithTags: ['platform:browser'] },
  { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:ui', 'type:lib'] },
  { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['platform:browser'] },
  // Platform: Node code only uses Node-capable libraries, browser code only browser-capable ones.
  { sourceTag: 'platform:node', onlyDependOnLibsWithTags: ['platform:node'] },
  { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
  // Shared code never reaches into a service's or front end's scope.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  // libs/media (ffmpeg) is the media worker's alone: every other scoped project, submissions queueing
  // jobs included, reaches the media queue through @clipit/media-queue, which holds no ffmpeg.
  { sourceTag: '/^scope:(?!media$)/', notDependOnLibsWithTags: ['scope:media'] },
  // Build tooling runs in Node at build time and uses nothing of the product.
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:tooling'] },
  // Root-level code (e2e journeys, scripts, deploy tooling) drives services from the outside; scripts
  // may drive the builds.
  { sourceTag: 'type:workspace', onlyDependOnLibsWithTags: ['type:lib', 'type:tooling'] },
];

// A front end's rspack.config.mjs runs in Node at build time, not in the browser: besides what the app
// may import, it may import the build tooling (and nothing else of the app's project may).
const BUILD_CONFIG_FILES = ['frontends/*/rspack.config.mjs'];
const buildConfigConstraints = productionConstraints.map((constraint) =>
  ['type:frontend', 'platform:browser'].includes(constraint.sourceTag)
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:tooling'] }
    : constraint,
);

// Nx tags are per project, not per file, so test code gets its own constraint set (same rule,
// overridden for TESTING_ALLOWED below): there the type:testing library is allowed as well.
const testConstraints = productionConstraints.map((constraint) =>
  constraint.onlyDependOnLibsWithTags?.includes('type:lib')
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] }
    : constraint,
);

const moduleBoundaries = (depConstraints, allow = []) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints,
    // Nx sees dependencies per project, so a library whose tests use @clipit/testing while
    // @clipit/testing uses that library forms a cycle in the graph even though production code has
    // none (the tags above already forbid libraries from importing the testing library outside tests).
    ignoredCircularDependencies: [['tag:type:testing', 'tag:type:lib']],
  },
];

// Second safety net, independent of the Nx project graph: no relative path may climb out of the
// project it starts in (e.g. '../../../services/identity/src/x.js' from libs/storage/src/), and
// workspace packages are imported by their entry point only. no-restricted-imports only sees the
// import text, so one block per directory depth says how many '../' leave the project: a file n
// directories below its project root leaves it with n+1 of them. Folders that merely share a name
// with a top-level directory (services/identity/src/services/) are therefore not flagged.
const SOURCE_FILES = '*.{ts,tsx,mts,cts,js,mjs,cjs}';
const PROJECT_DIRS = ['libs', 'services', 'frontends'];
const MAX_DEPTH = 12;
const up = (n) => `(\\.\\./){${n}}`;
const upAtLeast = (n) => `(\\.\\./){${n},}`;
const crossProjectMessage = 'Do not reach into another project with a relative path; import its package (@clipit/<name>) instead.';
const deepPackageImport = {
  group: ['@clipit/*/*'],
  message: 'Import a workspace package by its entry point (@clipit/<name>), not a file inside it.',
};
const restrictedImports = (regex) => [
  'error',
  { patterns: regex ? [{ regex, message: crossProjectMessage }, deepPackageImport] : [deepPackageImport] },
];
// The one sanctioned exception: end-to-end journeys boot services in-process through each service's
// composition root, services/<name>/src/app.ts (and the config types in src/config.ts), and nothing
// else of a service.
const SERVICE_COMPOSITION_ROOT = 'services/[^/]+/src/(app|config)\\.js$';
const relativeImportGuards = Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => {
  const dirs = '*/'.repeat(depth);
  const intoProjectDir = `${depth === 0 ? '\\./' : up(depth)}(${PROJECT_DIRS.join('|')})(/|$)`;
  const guards = [
    // Inside a project (libs/<name>/, services/<name>/, frontends/<name>/): out of it at all.
    {
      files: [`{${PROJECT_DIRS.join(',')}}/*/${dirs}${SOURCE_FILES}`],
      rules: { 'no-restricted-imports': restrictedImports(`^${upAtLeast(depth + 1)}`) },
    },
    // The root project (e2e/, scripts/, deploy/, root config files): into a project directory, or out of the repo.
    {
      files: [`${dirs}${SOURCE_FILES}`],
      ignores: [`{${PROJECT_DIRS.join(',')}}/**`],
      rules: { 'no-restricted-imports': restrictedImports(`^${intoProjectDir}|^${upAtLeast(depth + 1)}`) },
    },
  ];
  if (depth >= 1) {
    guards.push({
      files: [`e2e/${'*/'.repeat(depth - 1)}${SOURCE_FILES}`],
      rules: {
        'no-restricted-imports': restrictedImports(
          `^(?!${up(depth)}${SERVICE_COMPOSITION_ROOT})(${intoProjectDir}|${upAtLeast(depth + 1)})`,
        ),
      },
    });
  }
  return guards;
}).flat();

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      '.nx/**',
      'libs/contracts/src/generated/**',
      'libs/web-api/src/generated/**',
      'frontends/shell/@mf-types/**',
      'tmp/**',
      'artifacts/**',
      '.data/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  ...nx.configs['flat/base'],

  // Everything: recommended rules and the project boundaries.
  js.configs.recommended,
  {
    files: [...TS_FILES, ...JS_FILES],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(productionConstraints),
      'no-restricted-imports': restrictedImports(),
    },
  },
  ...relativeImportGuards,

  // TypeScript (its type-aware rules are oxlint's: .oxlintrc.json).
  {
    files: TS_FILES,
    extends: [...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // NestJS resolves constructor parameters from emitted decorator metadata, which a type-only
      // import erases; never auto-convert imports to `import type` here.
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },

  // The layering rule of a service (docs/adr/0016-service-layering.md): controllers and application
  // services reach the database, storage, queues and the bus only through repositories
  // (src/repositories/) and ports (src/ports.ts), so the drivers and clients themselves may not be
  // imported there. Types stay allowed: a service hands a repository's EntityManager along to keep
  // one transaction, it never queries through it. This is typescript-eslint's rule rather than
  // no-restricted-imports, which the project guards above already set per folder: a second block
  // setting that rule would replace their options instead of adding to them.
  {
    files: ['services/*/src/{services,controllers}/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...['typeorm', '@nestjs/typeorm', '@clipit/storage'].map((name) => ({
              name,
              allowTypeImports: true,
              message: 'Application services and controllers reach the database and storage through a repository (src/repositories/).',
            })),
            ...['ioredis', 'bullmq', 'pg', 'minio', '@clipit/media'].map((name) => ({
              name,
              message: 'Application services and controllers reach queues and servers through a port (src/ports.ts) or a repository.',
            })),
            ...['node:fs', 'node:fs/promises', 'node:child_process'].map((name) => ({
              name,
              message: 'Files and processes belong behind a repository or a port, not in an application service or controller.',
            })),
          ],
          patterns: [
            { group: ['@nats-io/*'], message: "Events go out through the outbox (the kit's Outbox), in the transaction of the change." },
          ],
        },
      ],
    },
  },

  // The gateway is a thin edge (docs/adr/0035-thin-gateway-edge.md): a controller method names its route,
  // its guards and its parameters and hands them to a service (or a guard or a pipe) in a line or two, so
  // no function in a controller file is longer than 10 lines, its decorators included.
  {
    files: ['services/gateway/src/**/*.controller.ts'],
    ignores: TEST_FILES,
    rules: {
      'max-lines-per-function': ['error', { max: 10, skipBlankLines: true, skipComments: true }],
    },
  },

  // Plain JavaScript: config files, scripts/, deploy/. No type information.
  {
    files: JS_FILES,
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },

  // Test code may use the testing library, and TypeScript tests are a little looser about `any`.
  {
    files: TESTING_ALLOWED,
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(testConstraints),
    },
  },
  {
    // See SERVICE_COMPOSITION_ROOT: the only imports of a service outside services/ (and unchecked
    // by tags, since Nx insists on package imports across projects).
    files: ['e2e/**'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(testConstraints, [`^(\\.\\./)+${SERVICE_COMPOSITION_ROOT}`]),
    },
  },
  {
    files: BUILD_CONFIG_FILES,
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(buildConfigConstraints),
    },
  },
  {
    files: TEST_FILES,
    ignores: JS_FILES,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },

  // Last: turn off stylistic rules that would fight a formatter.
  prettier,
);

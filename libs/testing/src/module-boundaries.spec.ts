// Proves the workspace lint config really enforces the project boundaries: snippets are linted with
// the real eslint.config.js as if they lived at the given paths, and the boundary rules must fire
// (or stay quiet) accordingly. ESLint runs in a child Node process, outside Jest's module sandbox,
// exactly as `npm run lint` runs it (the boundary rules need the Nx project graph, not type information,
// which ESLint no longer reads: the type-aware rules are oxlint's).
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Snippet {
  file: string;
  code: string;
}
interface Problem {
  ruleId: string | null;
  message: string;
  severity: number;
}

const child = `
import { ESLint } from 'eslint';
import { join } from 'node:path';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { file, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), file) });
  out.push(result.messages.map(({ ruleId, message, severity }) => ({ ruleId, message, severity })));
}
process.stdout.write('\\n@@RESULT@@' + JSON.stringify(out) + '\\n');
`;

function lint(snippets: Snippet[]): Problem[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', child], {
    cwd: root,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false' },
    timeout: 60_000,
  });
  const marker = stdout.lastIndexOf('@@RESULT@@');
  if (marker < 0) throw new Error(`ESLint produced no result:\n${stdout}`);
  return JSON.parse(stdout.slice(marker + '@@RESULT@@'.length)) as Problem[][];
}

const BOUNDARIES = '@nx/enforce-module-boundaries';
const importOf = (specifier: string): string => `import * as other from '${specifier}';\nexport const used = other;\n`;

const cases = {
  serviceImportsService: { file: 'services/gateway/src/__boundary__.ts', code: importOf('@clipit/identity') },
  serviceImportsLib: { file: 'services/gateway/src/__boundary__.ts', code: importOf('@clipit/contracts') },
  serviceImportsTestingInSource: { file: 'services/identity/src/__boundary__.ts', code: importOf('@clipit/testing') },
  serviceImportsTestingInSpec: { file: 'services/identity/src/__boundary__.spec.ts', code: importOf('@clipit/testing') },
  serviceImportsTestingInIntegrationTest: {
    file: 'services/identity/test/integration/__boundary__.int.spec.ts',
    code: importOf('@clipit/testing'),
  },
  libImportsService: { file: 'libs/storage/src/__boundary__.ts', code: importOf('@clipit/gateway') },
  libImportsTesting: { file: 'libs/contracts/src/__boundary__.ts', code: importOf('@clipit/testing') },
  libImportsLib: { file: 'libs/service-kit/src/__boundary__.ts', code: importOf('@clipit/contracts') },
  e2eImportsService: { file: 'e2e/__boundary__.e2e.spec.ts', code: importOf('@clipit/gateway') },
  e2eImportsTesting: { file: 'e2e/__boundary__.e2e.spec.ts', code: importOf('@clipit/testing') },
  deployImportsTesting: { file: 'deploy/launcher/__boundary__.mjs', code: importOf('@clipit/testing') },
  e2eBootsService: { file: 'e2e/support/__boundary__.ts', code: importOf('../../services/identity/src/app.js') },
  e2eReachesIntoService: {
    file: 'e2e/support/__boundary__.ts',
    code: importOf('../../services/identity/src/users/user.repository.js'),
  },
  relativeIntoService: {
    file: 'libs/storage/src/__boundary__.ts',
    code: importOf('../../../services/identity/src/main.js'),
  },
  relativeIntoSiblingLib: {
    file: 'libs/service-kit/test/integration/__boundary__.int.spec.ts',
    code: importOf('../../../storage/src/index.js'),
  },
  relativeWithinProject: {
    file: 'libs/service-kit/test/integration/__boundary__.int.spec.ts',
    code: importOf('../../src/index.js'),
  },
  relativeIntoFolderNamedServices: {
    file: 'services/identity/src/controllers/__boundary__.ts',
    code: importOf('../services/user.service.js'),
  },
  scriptIntoService: { file: 'scripts/__boundary__.mjs', code: importOf('../services/gateway/dist/main.js') },
  deepPackageImport: { file: 'services/gateway/src/__boundary__.ts', code: importOf('@clipit/contracts/src/index.js') },
  frontendImportsService: { file: 'frontends/shell/src/__boundary__.ts', code: importOf('@clipit/gateway') },
  frontendImportsNodeLib: { file: 'frontends/public/src/__boundary__.ts', code: importOf('@clipit/contracts') },
  frontendImportsBrowserLib: { file: 'frontends/public/src/__boundary__.ts', code: importOf('@clipit/frontend-contracts') },
  frontendImportsBuildTooling: { file: 'frontends/shell/src/__boundary__.ts', code: importOf('@clipit/frontend-build') },
  buildConfigImportsBuildTooling: { file: 'frontends/shell/rspack.config.mjs', code: importOf('@clipit/frontend-build') },
  producerImportsFfmpeg: { file: 'services/submissions/src/__boundary__.ts', code: importOf('@clipit/media') },
  producerTestImportsFfmpeg: { file: 'services/submissions/test/integration/__boundary__.int.spec.ts', code: importOf('@clipit/media') },
  producerImportsMediaQueue: { file: 'services/submissions/src/__boundary__.ts', code: importOf('@clipit/media-queue') },
  sharedLibImportsFfmpeg: { file: 'libs/media-queue/src/__boundary__.ts', code: importOf('@clipit/media') },
  workerImportsFfmpeg: { file: 'services/media-worker/src/__boundary__.ts', code: importOf('@clipit/media') },
  workerImportsMediaQueue: { file: 'services/media-worker/src/__boundary__.ts', code: importOf('@clipit/media-queue') },
  frontendImportsIsomorphicLib: { file: 'frontends/public/src/__boundary__.ts', code: importOf('@clipit/field-rules') },
  serviceImportsIsomorphicLib: { file: 'services/identity/src/__boundary__.ts', code: importOf('@clipit/field-rules') },
  isomorphicLibImportsNodeLib: { file: 'libs/field-rules/src/__boundary__.ts', code: importOf('@clipit/storage') },
  isomorphicLibImportsBrowserLib: { file: 'libs/field-rules/src/__boundary__.ts', code: importOf('@clipit/web-api') },
  // The layering rule (docs/adr/0016-service-layering.md).
  serviceImportsDatabase: { file: 'services/submissions/src/services/__layering__.ts', code: importOf('typeorm') },
  serviceImportsEntityManagerType: {
    file: 'services/submissions/src/services/__layering__.ts',
    code: "import type { EntityManager } from 'typeorm';\nexport type Used = EntityManager;\n",
  },
  controllerImportsStorage: {
    file: 'services/identity/src/controllers/__layering__.ts',
    code: "import { STORAGE } from '@clipit/storage';\nexport const used = STORAGE;\n",
  },
  serviceImportsQueue: { file: 'services/submissions/src/services/__layering__.ts', code: importOf('bullmq') },
  serviceImportsRedis: { file: 'services/identity/src/services/__layering__.ts', code: importOf('ioredis') },
  serviceImportsBus: { file: 'services/submissions/src/services/__layering__.ts', code: importOf('@nats-io/jetstream') },
  repositoryImportsDatabase: { file: 'services/submissions/src/repositories/__layering__.ts', code: importOf('typeorm') },
  serviceSpecImportsDatabase: { file: 'services/submissions/src/services/__layering__.spec.ts', code: importOf('typeorm') },
} satisfies Record<string, Snippet>;

type CaseName = keyof typeof cases;
const names = Object.keys(cases) as CaseName[];
const results = new Map<CaseName, Problem[]>();

function problems(name: CaseName, ruleId: string): Problem[] {
  if (results.size === 0) {
    const all = lint(names.map((n) => cases[n]));
    names.forEach((n, i) => results.set(n, all[i] ?? []));
  }
  return (results.get(name) ?? []).filter((p) => p.ruleId === ruleId && p.severity === 2);
}

// A tag-constraint violation, as opposed to any other finding of the same rule (cycles, etc.).
const tagViolation = /can only depend on libs tagged with|can not depend on libs tagged with|cannot depend on any libs/;

describe('module boundaries (eslint.config.js)', () => {
  it('forbids a service from importing another service', () => {
    expect(problems('serviceImportsService', BOUNDARIES)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(tagViolation) }),
    ]);
  });

  it('lets a service import a shared library', () => {
    expect(problems('serviceImportsLib', BOUNDARIES)).toEqual([]);
    expect(problems('serviceImportsLib', 'no-restricted-imports')).toEqual([]);
  });

  it('keeps the testing library out of service production code but allows it in service tests', () => {
    expect(problems('serviceImportsTestingInSource', BOUNDARIES)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(tagViolation) }),
    ]);
    for (const name of ['serviceImportsTestingInSpec', 'serviceImportsTestingInIntegrationTest'] as const) {
      expect(problems(name, BOUNDARIES).filter((p) => tagViolation.test(p.message))).toEqual([]);
    }
  });

  it('forbids a library from importing a service or the testing library', () => {
    // Once the service uses that library, Nx reports the import as a circular dependency before it
    // gets to the tags; either way the import is an error.
    expect(problems('libImportsService', BOUNDARIES)).toHaveLength(1);
    expect(problems('libImportsTesting', BOUNDARIES)).toEqual([expect.objectContaining({ message: expect.stringMatching(tagViolation) })]);
    expect(problems('libImportsLib', BOUNDARIES)).toEqual([]);
  });

  it('forbids root-level code from importing a service, and deploy tooling from using the testing library', () => {
    for (const name of ['e2eImportsService', 'deployImportsTesting'] as const) {
      expect(problems(name, BOUNDARIES)).toEqual([expect.objectContaining({ message: expect.stringMatching(tagViolation) })]);
    }
    expect(problems('e2eImportsTesting', BOUNDARIES)).toEqual([]);
  });

  it('lets e2e journeys boot a service through its composition root (src/app.ts) and nothing else of it', () => {
    expect(problems('e2eBootsService', BOUNDARIES)).toEqual([]);
    expect(problems('e2eBootsService', 'no-restricted-imports')).toEqual([]);
    expect(problems('e2eReachesIntoService', BOUNDARIES)).not.toEqual([]);
    expect(problems('e2eReachesIntoService', 'no-restricted-imports')).toHaveLength(1);
  });

  it('forbids relative paths into another project and deep imports into a package', () => {
    for (const name of ['relativeIntoService', 'relativeIntoSiblingLib', 'scriptIntoService'] as const) {
      expect(problems(name, 'no-restricted-imports')).toHaveLength(1);
      expect(problems(name, BOUNDARIES)).not.toEqual([]);
    }
    expect(problems('deepPackageImport', 'no-restricted-imports')).toHaveLength(1);
  });

  it('leaves relative imports that stay inside their project alone', () => {
    for (const name of ['relativeWithinProject', 'relativeIntoFolderNamedServices'] as const) {
      expect(problems(name, 'no-restricted-imports')).toEqual([]);
      expect(problems(name, BOUNDARIES)).toEqual([]);
    }
  });

  it('keeps ffmpeg (@clipit/media) to the media worker: the producer and shared libraries use @clipit/media-queue', () => {
    for (const name of ['producerImportsFfmpeg', 'producerTestImportsFfmpeg', 'sharedLibImportsFfmpeg'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({
        name,
        problems: [expect.objectContaining({ message: expect.stringMatching(tagViolation) })],
      });
    }
    for (const name of ['producerImportsMediaQueue', 'workerImportsFfmpeg', 'workerImportsMediaQueue'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({ name, problems: [] });
    }
  });

  it('keeps drivers and clients out of application services and controllers, but not their types, repositories or specs', () => {
    const LAYERING = '@typescript-eslint/no-restricted-imports';
    for (const name of [
      'serviceImportsDatabase',
      'controllerImportsStorage',
      'serviceImportsQueue',
      'serviceImportsRedis',
      'serviceImportsBus',
    ] as const) {
      expect({ name, problems: problems(name, LAYERING) }).toEqual({
        name,
        problems: [expect.objectContaining({ message: expect.stringMatching(/repository|port|outbox/) })],
      });
    }
    for (const name of ['serviceImportsEntityManagerType', 'repositoryImportsDatabase', 'serviceSpecImportsDatabase'] as const) {
      expect({ name, problems: problems(name, LAYERING) }).toEqual({ name, problems: [] });
    }
  });

  it('keeps front ends on browser libraries, and build tooling in their build configs only', () => {
    for (const name of ['frontendImportsService', 'frontendImportsNodeLib', 'frontendImportsBuildTooling'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({
        name,
        problems: [expect.objectContaining({ message: expect.stringMatching(tagViolation) })],
      });
    }
    for (const name of ['frontendImportsBrowserLib', 'buildConfigImportsBuildTooling'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({ name, problems: [] });
    }
  });

  it('lets a library tagged for both platforms serve front ends and services, and keeps it off either platform’s libraries', () => {
    for (const name of ['frontendImportsIsomorphicLib', 'serviceImportsIsomorphicLib'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({ name, problems: [] });
    }
    for (const name of ['isomorphicLibImportsNodeLib', 'isomorphicLibImportsBrowserLib'] as const) {
      expect({ name, problems: problems(name, BOUNDARIES) }).toEqual({
        name,
        problems: [expect.objectContaining({ message: expect.stringMatching(tagViolation) })],
      });
    }
  });
});

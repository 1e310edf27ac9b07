// `nx g @clipit/tools:service` run for real into a scratch copy of this workspace: the new service builds,
// lints, passes its own unit and integration tests (against the real Postgres and NATS), its contract's
// generated code is current, the lock file knows it, every deploy-config check still agrees, and the tree is
// Prettier-formatted as `npm test` checks it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as scratchCopy from '../support/scratch-workspace.js';

const NAME = 'ledger';

describe('nx g @clipit/tools:service', () => {
  let scratch: string;
  let generated: string;

  beforeAll(() => {
    scratch = scratchCopy.scratchWorkspace();
    generated = scratchCopy.run(scratch, scratchCopy.NODE, [
      'node_modules/nx/dist/bin/nx.js',
      'g',
      '@clipit/tools:service',
      NAME,
      '--description',
      "Teams' ledgers of test entries.",
      '--no-interactive',
    ]);
    scratchCopy.linkWorkspacePackages(scratch);
  }, 300_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('writes the service and registers it everywhere the platform lists services', () => {
    for (const file of [
      `services/${NAME}/src/app.ts`,
      `services/${NAME}/test/integration/${NAME}.int.spec.ts`,
      `services/${NAME}/README.md`,
      `proto/${NAME}/v1/${NAME}.proto`,
      `libs/contracts/src/generated/${NAME}/v1/${NAME}.ts`,
      `k8s/base/services/${NAME}/deployment.yaml`,
    ]) {
      expect({ file, exists: existsSync(join(scratch, file)) }).toEqual({ file, exists: true });
    }
    const read = (file: string) => readFileSync(join(scratch, file), 'utf8');
    expect(read('deploy/launcher/services.mjs')).toContain(`name: '${NAME}'`);
    expect(read('docker-compose.yml')).toMatch(new RegExp(`^  ${NAME}:$`, 'm'));
    expect(read('docker-compose.yml')).toMatch(new RegExp(`CLIPIT_DATABASES: .*clipit_${NAME}`));
    expect(read('k8s/base/infra/postgres.yaml')).toContain(`clipit_${NAME}`);
    expect(read('k8s/base/kustomization.yaml')).toContain(`  - services/${NAME}`);
    expect(read('deploy/.env.example')).toMatch(/^LEDGER_GRPC_PORT=5005\d$/m);
    expect(read('tsconfig.json')).toContain(`"path": "services/${NAME}"`);
    expect(read('package-lock.json')).toContain(`"services/${NAME}"`);
    expect(read('.github/CODEOWNERS')).toMatch(new RegExp(`^/services/${NAME}/ +@clipit/${NAME}-team$`, 'm'));
    expect(generated).toContain(`services/${NAME} is ready to run`);
    // The description is written as given (an apostrophe is not turned into an HTML entity).
    expect(read(`services/${NAME}/README.md`)).toContain("Teams' ledgers of test entries.");
    expect(read(`k8s/base/services/${NAME}/kustomization.yaml`)).toContain("Teams' ledgers of test entries.");
  });

  it("leaves the tree Prettier-formatted, as the workspace's `prettier --check .` wants it", () => {
    scratchCopy.run(scratch, scratchCopy.NODE, ['node_modules/prettier/bin/prettier.cjs', '--check', '.']);
  });

  it('builds, and its tests type-check', () => {
    scratchCopy.buildAndTypeCheckTests(scratch, NAME, ['contracts', 'service-kit', 'testing']);
  });

  it('lints clean, module boundaries included', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, [
      'node_modules/eslint/bin/eslint.js',
      '--max-warnings=0',
      `services/${NAME}`,
      'libs/contracts/src',
      'deploy/launcher',
    ]);
  });

  it('has its generated contract code, image tag and version labels current and the lock file in step with the workspace', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, ['scripts/proto-gen.mjs', '--check']);
    scratchCopy.run(scratch, scratchCopy.NODE, ['scripts/versions.mjs', '--check']);
    expect(scratchCopy.lockFileInStep(scratch)).toBe(true);
  });

  it("passes its own unit and integration tests, and the platform's deploy-config checks", () => {
    const output = scratchCopy.runOwnTestsAndDeployChecks(scratch, NAME);
    expect(output).toMatch(new RegExp(`PASS .*services/${NAME}/test/integration/${NAME}\\.int\\.spec\\.ts`));
    expect(output).toMatch(new RegExp(`PASS .*services/${NAME}/src/config\\.spec\\.ts`));
    expect(output).toMatch(/PASS .*deploy-config\.int\.spec\.ts/);
    expect(output).toMatch(/PASS .*ownership\.int\.spec\.ts/);
    expect(output).not.toMatch(/FAIL/);
  });
});

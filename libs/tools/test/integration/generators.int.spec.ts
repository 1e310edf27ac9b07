// `nx g @clipit/tools:service` and `nx g @clipit/tools:worker` run for real, one after the other, into one
// scratch copy of this workspace, as a team adding a service and a worker would. Each new project builds,
// lints, passes its own unit and integration tests (against the real Postgres, Redis and NATS; the worker also
// as its built process: it starts, says it is ready and does a task end to end), its generated contract code
// and image tag are current, the lock file knows both, every deploy-config check still agrees, and every file
// the generators wrote or changed is Prettier-formatted as `npm test` checks the tree.
//
// One scratch copy for both generators: the copy, the libraries' build, the lock-file resolution and the
// deploy-config checks are each paid once (they were the most expensive steps of two specs that repeated
// them), and the two projects are also shown to fit side by side.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as scratchCopy from '../support/scratch-workspace.js';

const SERVICE = 'ledger';
const TASK = 'thumbs';
const WORKER = `${TASK}-worker`;

describe('nx g @clipit/tools:service and @clipit/tools:worker', () => {
  let scratch: string;
  let serviceOutput: string;
  let workerOutput: string;
  const read = (file: string) => readFileSync(join(scratch, file), 'utf8');
  const exists = (files: string[]) => {
    for (const file of files) expect({ file, exists: existsSync(join(scratch, file)) }).toEqual({ file, exists: true });
  };

  beforeAll(() => {
    scratch = scratchCopy.scratchWorkspace();
    const nx = (generator: string, name: string, description: string) =>
      scratchCopy.run(scratch, scratchCopy.NODE, [
        'node_modules/nx/dist/bin/nx.js',
        'g',
        `@clipit/tools:${generator}`,
        name,
        '--description',
        description,
        '--no-interactive',
      ]);
    serviceOutput = nx('service', SERVICE, "Teams' ledgers of test entries.");
    workerOutput = nx('worker', TASK, "Makes the clips' thumbnails.");
    scratchCopy.linkWorkspacePackages(scratch);
  }, 300_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('writes the service and registers it everywhere the platform lists services', () => {
    exists([
      `services/${SERVICE}/src/app.ts`,
      `services/${SERVICE}/test/integration/${SERVICE}.int.spec.ts`,
      `services/${SERVICE}/README.md`,
      `proto/${SERVICE}/v1/${SERVICE}.proto`,
      `libs/contracts/src/generated/${SERVICE}/v1/${SERVICE}.ts`,
      `k8s/base/services/${SERVICE}/deployment.yaml`,
    ]);
    expect(read('deploy/launcher/services.mjs')).toContain(`name: '${SERVICE}'`);
    expect(read('docker-compose.yml')).toMatch(new RegExp(`^  ${SERVICE}:$`, 'm'));
    expect(read('docker-compose.yml')).toMatch(new RegExp(`CLIPIT_DATABASES: .*clipit_${SERVICE}`));
    expect(read('k8s/components/infra-single/postgres.yaml')).toContain(`clipit_${SERVICE}`);
    expect(read('k8s/components/postgres-cnpg/databases.yaml')).toContain(`  name: clipit_${SERVICE}\n  owner: ${SERVICE}\n`);
    expect(read('k8s/base/services/ledger/service-grpc.yaml')).toContain(`  name: ${SERVICE}-grpc\n`);
    expect(read('k8s/base/kustomization.yaml')).toContain(`  - services/${SERVICE}`);
    expect(read('deploy/.env.example')).toMatch(/^LEDGER_GRPC_PORT=5005\d$/m);
    expect(read('tsconfig.json')).toContain(`"path": "services/${SERVICE}"`);
    expect(read('package-lock.json')).toContain(`"services/${SERVICE}"`);
    expect(read('.github/CODEOWNERS')).toMatch(new RegExp(`^/services/${SERVICE}/ +@clipit/${SERVICE}-team$`, 'm'));
    expect(serviceOutput).toContain(`services/${SERVICE} is ready to run`);
    // The description is written as given (an apostrophe is not turned into an HTML entity).
    expect(read(`services/${SERVICE}/README.md`)).toContain("Teams' ledgers of test entries.");
    expect(read(`k8s/base/services/${SERVICE}/kustomization.yaml`)).toContain("Teams' ledgers of test entries.");
  });

  it('writes the worker on the worker kit, its contracts, and registers it everywhere the platform lists services', () => {
    exists([
      `services/${WORKER}/src/app.ts`,
      `services/${WORKER}/src/jobs/${TASK}-task.handler.ts`,
      `services/${WORKER}/test/integration/${WORKER}.int.spec.ts`,
      `services/${WORKER}/README.md`,
      `libs/contracts/src/queues/${TASK}-queue.ts`,
      `libs/contracts/src/events/${TASK}/${TASK}-events.v1.ts`,
      `k8s/base/services/${WORKER}/deployment.yaml`,
    ]);
    expect(read(`services/${WORKER}/src/app.ts`)).toContain('defineWorker(');
    expect(read('libs/contracts/src/events/catalog.ts')).toContain(
      `'${TASK}.task-done': { source: '${WORKER}', version: 1, schema: ${TASK}TaskDoneV1 }`,
    );
    expect(read('deploy/launcher/services.mjs')).toContain(`name: '${WORKER}'`);
    expect(read('docker-compose.yml')).toMatch(new RegExp(`^  ${WORKER}:$`, 'm'));
    expect(read('k8s/base/kustomization.yaml')).toContain(`  - services/${WORKER}`);
    expect(read('deploy/.env.example')).toMatch(/^THUMBS_WORKER_PUBLISH_RETRY_MAX_MS=30000$/m);
    expect(read('tsconfig.json')).toContain(`"path": "services/${WORKER}"`);
    expect(read('package-lock.json')).toContain(`"services/${WORKER}"`);
    expect(read('.github/CODEOWNERS')).toMatch(new RegExp(`^/services/${WORKER}/ +@clipit/${TASK}-team$`, 'm'));
    expect(read('README.md')).toMatch(new RegExp(`^\\| \\[${WORKER}\\]\\(services/${WORKER}/README\\.md\\) +\\|`, 'm'));
    expect(read(`services/${WORKER}/README.md`)).toContain("Makes the clips' thumbnails.");
    expect(workerOutput).toContain(`services/${WORKER} is ready to run`);
  });

  it("leaves every file they wrote or changed Prettier-formatted, as the workspace's `prettier --check .` wants it", () => {
    // The files the copy started with are the workspace's own, which `npm test` checks itself.
    const touched = scratchCopy.changedFiles(scratch);
    expect(touched).toEqual(
      expect.arrayContaining([
        `services/${SERVICE}/src/app.ts`,
        `services/${WORKER}/src/app.ts`,
        'docker-compose.yml',
        'README.md',
        'libs/contracts/src/events/catalog.ts',
      ]),
    );
    scratchCopy.run(scratch, scratchCopy.NODE, ['node_modules/prettier/bin/prettier.cjs', '--check', '--ignore-unknown', ...touched]);
  });

  it('builds both, and their tests type-check', () => {
    scratchCopy.buildAndTypeCheckTests(scratch, [SERVICE, WORKER], ['contracts', 'service-kit', 'worker-kit', 'media-queue', 'testing']);
  });

  it('lints clean (ESLint and the type-aware rules), module boundaries included', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, [
      'scripts/lint.mjs',
      `services/${SERVICE}`,
      `services/${WORKER}`,
      'libs/contracts/src',
      'deploy/launcher',
    ]);
  });

  it('has the generated contract code, image tags and version labels current and the lock file in step with the workspace', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, ['scripts/proto-gen.mjs', '--check']);
    scratchCopy.run(scratch, scratchCopy.NODE, ['scripts/versions.mjs', '--check']);
    expect(scratchCopy.lockFileInStep(scratch)).toBe(true);
  });

  it("both pass their own unit and integration tests (the worker's in process and as its built process, against the real Redis and NATS), and the platform's deploy-config checks", () => {
    const output = scratchCopy.runOwnTestsAndDeployChecks(scratch, [SERVICE, WORKER]);
    for (const file of [
      `services/${SERVICE}/test/integration/${SERVICE}.int.spec.ts`,
      `services/${SERVICE}/src/config.spec.ts`,
      `services/${WORKER}/test/integration/${WORKER}.int.spec.ts`,
      `services/${WORKER}/src/jobs/${TASK}-task.handler.spec.ts`,
      `services/${WORKER}/src/config.spec.ts`,
      'libs/testing/test/integration/deploy-config.int.spec.ts',
      'libs/testing/test/integration/ownership.int.spec.ts',
    ]) {
      expect({ file, passed: new RegExp(`PASS .*${file.replaceAll('.', '\\.')}`).test(output) }).toEqual({ file, passed: true });
    }
    expect(output).not.toMatch(/FAIL/);
  });
});

// `nx g @clipit/tools:worker` run for real into a scratch copy of this workspace: the new worker builds, lints,
// is Prettier-formatted as `npm test` checks it, passes its own unit and integration tests against the real Redis
// and NATS (in process, and as the built service's process: it starts, says it is ready and does a task end to
// end), its image tag is current, the lock file knows it, and every deploy-config check still agrees.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as scratchCopy from '../support/scratch-workspace.js';

const NAME = 'thumbs';
const WORKER = `${NAME}-worker`;

describe('nx g @clipit/tools:worker', () => {
  let scratch: string;
  let generated: string;
  const read = (file: string) => readFileSync(join(scratch, file), 'utf8');

  beforeAll(() => {
    scratch = scratchCopy.scratchWorkspace();
    generated = scratchCopy.run(scratch, scratchCopy.NODE, [
      'node_modules/nx/dist/bin/nx.js',
      'g',
      '@clipit/tools:worker',
      NAME,
      '--description',
      "Makes the clips' thumbnails.",
      '--no-interactive',
    ]);
    scratchCopy.linkWorkspacePackages(scratch);
  }, 300_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('writes the worker on the worker kit, its contracts, and registers it everywhere the platform lists services', () => {
    for (const file of [
      `services/${WORKER}/src/app.ts`,
      `services/${WORKER}/src/jobs/${NAME}-task.handler.ts`,
      `services/${WORKER}/test/integration/${WORKER}.int.spec.ts`,
      `services/${WORKER}/README.md`,
      `libs/contracts/src/queues/${NAME}-queue.ts`,
      `libs/contracts/src/events/${NAME}/${NAME}-events.v1.ts`,
      `k8s/base/services/${WORKER}/deployment.yaml`,
    ]) {
      expect({ file, exists: existsSync(join(scratch, file)) }).toEqual({ file, exists: true });
    }
    expect(read(`services/${WORKER}/src/app.ts`)).toContain('defineWorker(');
    expect(read('libs/contracts/src/events/catalog.ts')).toContain(
      `'${NAME}.task-done': { source: '${WORKER}', version: 1, schema: ${NAME}TaskDoneV1 }`,
    );
    expect(read('deploy/launcher/services.mjs')).toContain(`name: '${WORKER}'`);
    expect(read('docker-compose.yml')).toMatch(new RegExp(`^  ${WORKER}:$`, 'm'));
    expect(read('k8s/base/kustomization.yaml')).toContain(`  - services/${WORKER}`);
    expect(read('deploy/.env.example')).toMatch(/^THUMBS_WORKER_PUBLISH_RETRY_MAX_MS=30000$/m);
    expect(read('tsconfig.json')).toContain(`"path": "services/${WORKER}"`);
    expect(read('package-lock.json')).toContain(`"services/${WORKER}"`);
    expect(read('.github/CODEOWNERS')).toMatch(new RegExp(`^/services/${WORKER}/ +@clipit/${NAME}-team$`, 'm'));
    expect(read('README.md')).toMatch(new RegExp(`^\\| \\[${WORKER}\\]\\(services/${WORKER}/README\\.md\\) +\\|`, 'm'));
    expect(read(`services/${WORKER}/README.md`)).toContain("Makes the clips' thumbnails.");
    expect(generated).toContain(`services/${WORKER} is ready to run`);
  });

  it("leaves the tree Prettier-formatted, as the workspace's `prettier --check .` wants it", () => {
    scratchCopy.run(scratch, scratchCopy.NODE, ['node_modules/prettier/bin/prettier.cjs', '--check', '.']);
  });

  it('builds, and its tests type-check', () => {
    scratchCopy.buildAndTypeCheckTests(scratch, WORKER, ['contracts', 'service-kit', 'worker-kit', 'media-queue', 'testing']);
  });

  it('lints clean, module boundaries included', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, [
      'node_modules/eslint/bin/eslint.js',
      '--max-warnings=0',
      `services/${WORKER}`,
      'libs/contracts/src',
      'deploy/launcher',
    ]);
  });

  it('has its image tag and version labels current and the lock file in step with the workspace', () => {
    scratchCopy.run(scratch, scratchCopy.NODE, ['scripts/versions.mjs', '--check']);
    expect(scratchCopy.lockFileInStep(scratch)).toBe(true);
  });

  it("runs: its own unit and integration tests (in process and as its built process, against the real Redis and NATS), and the platform's deploy-config checks", () => {
    const output = scratchCopy.runOwnTestsAndDeployChecks(scratch, WORKER);
    expect(output).toMatch(new RegExp(`PASS .*services/${WORKER}/test/integration/${WORKER}\\.int\\.spec\\.ts`));
    expect(output).toMatch(new RegExp(`PASS .*services/${WORKER}/src/jobs/${NAME}-task\\.handler\\.spec\\.ts`));
    expect(output).toMatch(new RegExp(`PASS .*services/${WORKER}/src/config\\.spec\\.ts`));
    expect(output).toMatch(/PASS .*deploy-config\.int\.spec\.ts/);
    expect(output).toMatch(/PASS .*ownership\.int\.spec\.ts/);
    expect(output).not.toMatch(/FAIL/);
  });
});

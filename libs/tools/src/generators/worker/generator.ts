import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { formatFiles, generateFiles, type GeneratorCallback, type Tree } from '@nx/devkit';
import { nextPort, workspacePackageNamed } from '../service/generator';
import { registerWorker, type WorkerNames } from './registration';

export interface WorkerGeneratorSchema {
  name: string;
  description?: string;
  team?: string;
  skipInstall?: boolean;
}

const NAME = /^[a-z][a-z0-9]*$/;

export function workerNames(tree: Tree, schema: WorkerGeneratorSchema): WorkerNames {
  const name = schema.name.trim();
  if (!NAME.test(name))
    throw new Error(
      `"${schema.name}" is not a worker name: one lowercase word of letters and digits, starting with a letter (e.g. thumbs)`,
    );
  const worker = `${name}-worker`;
  if (tree.exists(`services/${worker}`)) throw new Error(`services/${worker} already exists`);
  const clash = workspacePackageNamed(tree, `@clipit/${worker}`);
  if (clash) throw new Error(`@clipit/${worker} is already the name of ${clash}: choose another worker name`);
  if (tree.exists(`libs/contracts/src/queues/${name}-queue.ts`) || tree.exists(`libs/contracts/src/events/${name}`))
    throw new Error(`libs/contracts already has a queue or events named ${name}: choose another worker name`);
  const className = name.charAt(0).toUpperCase() + name.slice(1);
  return {
    name,
    worker,
    className,
    propertyName: name,
    prefix: `${name.toUpperCase()}_WORKER`,
    constant: name.toUpperCase(),
    queue: name,
    jobName: `${name}-task`,
    eventType: `${name}.task-done`,
    httpPort: nextPort(tree.read('deploy/.env.example', 'utf-8') ?? '', 'HTTP_PORT', 8100),
    version: '0.1.0',
    description: (schema.description?.trim() || `${className} worker of CLIP IT.`).replace(/\.?$/, '.'),
    team: schema.team?.trim() || `@clipit/${name}-team`,
  };
}

/**
 * `nx g @clipit/tools:worker <name>`: a running, deployable queue worker on the worker kit. services/<name>-worker
 * (declaration, module, config, a first job through handler and queue worker, unit and integration tests with a
 * harness, README), its job and event contracts in libs/contracts, and its place everywhere the platform lists
 * services (launcher, compose, Kubernetes, the env example, tsconfig references, CODEOWNERS, the README); the
 * files Prettier-formatted, then the lock file learns the new workspace.
 */
export default async function workerGenerator(tree: Tree, schema: WorkerGeneratorSchema): Promise<GeneratorCallback> {
  const names = workerNames(tree, schema);
  generateFiles(tree, path.join(__dirname, 'files'), '.', { ...names, tmpl: '' });
  registerWorker(tree, names);
  // As the workspace's `prettier --check .` wants them, so a generated worker committed as it is passes.
  await formatFiles(tree);
  return () => {
    if (!schema.skipInstall)
      execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: tree.root,
        stdio: 'inherit',
      });
    console.log(
      [
        '',
        `services/${names.worker} is ready to run: npm run test:integration -- --testPathPatterns services/${names.worker}`,
        `Next: its work. Give the job the data it needs (libs/contracts/src/queues/${names.name}-queue.ts), the event what it`,
        `states (libs/contracts/src/events/${names.name}/), and put the work in decide() of src/jobs/${names.name}-task.handler.ts.`,
      ].join('\n'),
    );
  };
}

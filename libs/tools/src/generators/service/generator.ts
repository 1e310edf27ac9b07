import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { formatFiles, generateFiles, type GeneratorCallback, type Tree } from '@nx/devkit';
import { registerService, type ServiceNames } from './registration';

export interface ServiceGeneratorSchema {
  name: string;
  description?: string;
  team?: string;
  skipProto?: boolean;
  skipInstall?: boolean;
}

const NAME = /^[a-z][a-z0-9]*$/;

/** The next free port after every default of this kind that deploy/.env.example lists. */
export function nextPort(envExample: string, kind: 'GRPC_PORT' | 'HTTP_PORT', floor: number): number {
  const taken = [...envExample.matchAll(new RegExp(`^[A-Z][A-Z0-9_]*_${kind}=(\\d+)$`, 'gm'))].map((m) => Number(m[1]));
  return Math.max(floor, ...taken) + 1;
}

/** The folder of the workspace package called `packageName`, if one exists (libs, services, frontends). */
export function workspacePackageNamed(tree: Tree, packageName: string): string | undefined {
  for (const root of ['libs', 'services', 'frontends']) {
    if (!tree.exists(root)) continue;
    for (const child of tree.children(root)) {
      const manifest = `${root}/${child}/package.json`;
      if (!tree.exists(manifest)) continue;
      const parsed = JSON.parse(tree.read(manifest, 'utf-8') ?? '{}') as { name?: string };
      if (parsed.name === packageName) return `${root}/${child}`;
    }
  }
  return undefined;
}

export function serviceNames(tree: Tree, schema: ServiceGeneratorSchema): ServiceNames {
  const name = schema.name.trim();
  if (!NAME.test(name))
    throw new Error(
      `"${schema.name}" is not a service name: one lowercase word of letters and digits, starting with a letter (e.g. social)`,
    );
  if (tree.exists(`services/${name}`)) throw new Error(`services/${name} already exists`);
  const clash = workspacePackageNamed(tree, `@clipit/${name}`);
  if (clash)
    throw new Error(
      `@clipit/${name} is already the name of ${clash}: npm workspaces need distinct names, so choose another service name or rename that package`,
    );
  const envExample = tree.read('deploy/.env.example', 'utf-8') ?? '';
  const className = name.charAt(0).toUpperCase() + name.slice(1);
  return {
    name,
    className,
    propertyName: name,
    prefix: name.toUpperCase(),
    database: `clipit_${name}`,
    packageName: `${name}.v1`,
    serviceName: `${className}Service`,
    grpcPort: nextPort(envExample, 'GRPC_PORT', 50050),
    httpPort: nextPort(envExample, 'HTTP_PORT', 8100),
    version: '0.1.0',
    description: (schema.description?.trim() || `${className} service of CLIP IT.`).replace(/\.?$/, '.'),
    team: schema.team?.trim() || `@clipit/${name}-team`,
  };
}

/**
 * `nx g @clipit/tools:service <name>`: a working service folder (kit start-up, module, config, a first
 * gRPC method through controller → application service → repository, unit and integration tests with a
 * harness, README), its contract under proto/, and its place everywhere the platform lists services.
 * Afterwards the contract's types are generated and the lock file learns the new workspace.
 */
export default async function serviceGenerator(tree: Tree, schema: ServiceGeneratorSchema): Promise<GeneratorCallback> {
  const names = serviceNames(tree, schema);
  generateFiles(tree, path.join(__dirname, 'files'), '.', { ...names, tmpl: '' });
  registerService(tree, names);
  // As the workspace's `prettier --check .` wants them, so a generated service committed as it is passes.
  await formatFiles(tree);
  return () => {
    const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: tree.root, stdio: 'inherit' });
    if (!schema.skipProto) run(process.execPath, ['scripts/proto-gen.mjs']);
    if (!schema.skipInstall) run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
    console.log(
      [
        '',
        `services/${names.name} is ready to run: npm run test:integration -- --testPathPatterns services/${names.name}`,
        `Next: its first rule. Add an rpc to proto/${names.name}/v1/${names.name}.proto, run npm run proto, then a`,
        'controller method, an application service with a unit spec, and a repository for what it stores.',
      ].join('\n'),
    );
  };
}

import type { Tree } from '@nx/devkit';

/** Every name a new service is known by, derived once from its name. */
export interface ServiceNames {
  /** services/<name>, the image, the Deployment, the proto folder: `social` */
  name: string;
  className: string;
  propertyName: string;
  /** Its variables' prefix: `SOCIAL` */
  prefix: string;
  database: string;
  packageName: string;
  serviceName: string;
  grpcPort: number;
  httpPort: number;
  version: string;
  description: string;
  team: string;
}

// The places the platform lists its services, each edited as text so that comments and layout stay as
// people wrote them. Each edit finds an anchor and fails, naming the file, when the anchor is gone:
// better a clear error than a service half registered.

function edit(tree: Tree, file: string, change: (text: string) => string): void {
  const before = tree.read(file, 'utf-8');
  if (before === null) throw new Error(`${file} is missing`);
  tree.write(file, change(before));
}

function anchorError(file: string, what: string): Error {
  return new Error(`${file}: cannot find ${what}; add the new service there by hand or restore the anchor`);
}

/** Inserts `block` before the first line matching `anchor`. */
function insertBeforeLine(file: string, text: string, anchor: RegExp, block: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) throw anchorError(file, String(anchor));
  lines.splice(at, 0, ...block.split('\n'));
  return lines.join('\n');
}

/** Inserts `block` after the last line matching `anchor`. */
function insertAfterLastLine(file: string, text: string, anchor: RegExp, block: string): string {
  const lines = text.split('\n');
  const at = lines.map((l) => anchor.test(l)).lastIndexOf(true);
  if (at < 0) throw anchorError(file, String(anchor));
  lines.splice(at + 1, 0, ...block.split('\n'));
  return lines.join('\n');
}

/** Appends ` <word>` to the line matching `anchor` (a space-separated list such as CLIPIT_DATABASES). */
function appendToLine(file: string, text: string, anchor: RegExp, word: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) throw anchorError(file, String(anchor));
  lines[at] = `${lines[at]!.trimEnd()} ${word}`;
  return lines.join('\n');
}

function launcher(tree: Tree, n: ServiceNames): void {
  const file = 'deploy/launcher/services.mjs';
  // Before the gateway: the launcher starts services in list order, and the gateway last.
  edit(tree, file, (t) =>
    insertBeforeLine(
      file,
      t,
      // The new entry's lines go between the gateway's opening brace and its name.
      /^ {4}name: 'gateway',$/,
      [
        `    name: '${n.name}',`,
        `    httpPortEnv: '${n.prefix}_HTTP_PORT',`,
        `    httpHostEnv: '${n.prefix}_BIND_HOST',`,
        `    portEnvs: ['${n.prefix}_GRPC_PORT'],`,
        `    databaseUrlEnv: '${n.prefix}_DATABASE_URL',`,
        '  },',
        '  {',
      ].join('\n'),
    ),
  );
}

function tsconfigs(tree: Tree, n: ServiceNames): void {
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'tsconfig.tests.json']) {
    if (!tree.exists(file)) continue;
    // Before the first service's reference (text, not JSON: these files carry comments).
    edit(tree, file, (t) => {
      const lines = t.split('\n');
      const at = lines.findIndex((l) => /^\s*"path": "services\//.test(l));
      if (at < 1 || lines[at - 1]!.trim() !== '{') throw anchorError(file, 'a reference to services/');
      const indent = lines[at - 1]!.slice(0, lines[at - 1]!.indexOf('{'));
      lines.splice(at - 1, 0, `${indent}{`, `${indent}  "path": "services/${n.name}"`, `${indent}},`);
      return lines.join('\n');
    });
  }
}

function envExample(tree: Tree, n: ServiceNames): void {
  const file = 'deploy/.env.example';
  const rule = '# ---------------------------------------------------------------------------';
  edit(tree, file, (t) => {
    const lines = t.split('\n');
    const gateway = lines.findIndex((l, i) => l === '# gateway' && lines[i - 1] === rule);
    if (gateway < 0) throw anchorError(file, 'the gateway section');
    lines.splice(
      gateway - 1,
      0,
      rule,
      `# ${n.name}`,
      rule,
      `# ${n.className}'s own database.`,
      `${n.prefix}_DATABASE_URL=postgres://postgres@127.0.0.1:5432/${n.database}`,
      `# Port of ${n.name}'s gRPC server.`,
      `${n.prefix}_GRPC_PORT=${n.grpcPort}`,
      `# Port of ${n.name}'s HTTP server: /health/live, /health/ready, /metrics.`,
      `${n.prefix}_HTTP_PORT=${n.httpPort}`,
      `# Interface both of ${n.name}'s servers bind (127.0.0.1 to keep them off the network).`,
      `${n.prefix}_BIND_HOST=0.0.0.0`,
      `# Connections in ${n.name}'s Postgres pool.`,
      `${n.prefix}_DB_POOL_SIZE=10`,
      '',
    );
    return lines.join('\n');
  });
}

function compose(tree: Tree, n: ServiceNames): void {
  const file = 'docker-compose.yml';
  edit(tree, file, (t) => {
    const lines = t.split('\n');
    let at = lines.indexOf('  gateway:');
    if (at < 0) throw anchorError(file, 'the gateway service');
    while (at > 0 && lines[at - 1]!.startsWith('  #')) at -= 1; // above the gateway's own comment
    lines.splice(
      at,
      0,
      `  # ${n.name}: ${n.description}`,
      `  ${n.name}:`,
      '    <<: *node-service',
      '    build:',
      '      context: .',
      '      dockerfile: deploy/Dockerfile',
      '      args:',
      `        SERVICE: ${n.name}`,
      `    image: clipit/${n.name}:${n.version}`,
      '    environment:',
      '      <<: *shared-env',
      `      ${n.prefix}_DATABASE_URL: postgres://postgres:clipit-dev@postgres:5432/${n.database}`,
      `      ${n.prefix}_GRPC_PORT: "${n.grpcPort}"`,
      `      ${n.prefix}_HTTP_PORT: "${n.httpPort}"`,
      '      DB_MIGRATE_ON_BOOT: "true"',
      '    depends_on: *infra-ready',
      '    healthcheck:',
      '      test: ["CMD", "node", "deploy/docker/healthcheck.mjs"]',
      '      interval: 10s',
      '      timeout: 5s',
      '      retries: 3',
      '      start_period: 30s',
      '',
    );
    return appendToLine(file, lines.join('\n'), /^\s+CLIPIT_DATABASES: /, n.database);
  });
}

/** Adds `- name: <name>\n count: <n>` at the end of an overlay's `replicas:` list, with the count of its last entry. */
function addReplicas(file: string, text: string, name: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf('replicas:');
  if (start < 0) return text;
  let end = start + 1;
  while (end < lines.length && /^ {2}- name: |^ {4}count: /.test(lines[end]!)) end += 1;
  const count = /count: (\d+)/.exec(lines[end - 1] ?? '')?.[1];
  if (!count) throw anchorError(file, 'the replicas list');
  lines.splice(end, 0, `  - name: ${name}`, `    count: ${count}`);
  return lines.join('\n');
}

function kubernetes(tree: Tree, n: ServiceNames): void {
  const base = 'k8s/base/kustomization.yaml';
  edit(tree, base, (t) => insertAfterLastLine(base, t, /^ {2}- services\//, `  - services/${n.name}`));
  const postgres = 'k8s/base/infra/postgres.yaml';
  edit(tree, postgres, (t) => {
    const lines = t.split('\n');
    const at = lines.findIndex((l) => /- name: CLIPIT_DATABASES$/.test(l));
    if (at < 0 || !/^\s+value: /.test(lines[at + 1] ?? '')) throw anchorError(postgres, 'CLIPIT_DATABASES');
    lines[at + 1] = `${lines[at + 1]!.trimEnd()} ${n.database}`;
    return lines.join('\n');
  });
  const dev = 'k8s/overlays/dev/kustomization.yaml';
  edit(tree, dev, (t) =>
    addReplicas(
      dev,
      insertAfterLastLine(
        dev,
        t,
        /^ {6}- [A-Z][A-Z0-9_]*_DATABASE_URL=/,
        `      - ${n.prefix}_DATABASE_URL=postgres://postgres:clipit-dev@postgres:5432/${n.database}`,
      ),
      n.name,
    ),
  );
  const prod = 'k8s/overlays/prod/kustomization.yaml';
  if (tree.exists(prod)) edit(tree, prod, (t) => addReplicas(prod, t, n.name));
}

function contracts(tree: Tree, n: ServiceNames): void {
  const index = 'libs/contracts/src/index.ts';
  edit(tree, index, (t) =>
    insertAfterLastLine(
      index,
      t,
      /^export \* as \w+V1 from /,
      `export * as ${n.propertyName}V1 from './generated/${n.name}/v1/${n.name}.js';`,
    ),
  );
  const file = 'libs/contracts/src/grpc-contracts.ts';
  edit(tree, file, (t) => {
    const withImport = insertAfterLastLine(
      file,
      t,
      /^import \* as \w+V1 from /,
      `import * as ${n.propertyName}V1 from './generated/${n.name}/v1/${n.name}.js';`,
    );
    return `${withImport.trimEnd()}\nexport const ${n.propertyName}Contract = grpcContract<${n.propertyName}V1.${n.serviceName}Client>('${n.name}', ${n.propertyName}V1.${n.prefix}_V1_PACKAGE_NAME, ${n.propertyName}V1.${n.prefix}_SERVICE_NAME);\n`;
  });
}

function codeowners(tree: Tree, n: ServiceNames): void {
  const file = ['.github/CODEOWNERS', 'CODEOWNERS'].find((f) => tree.exists(f));
  if (!file) return;
  // After the last service's block, in the file's column layout (the last matching line wins, and the
  // catch-all for the platform team comes first).
  const line = (path: string) => `${path.padEnd(35)} ${n.team}`;
  edit(tree, file, (t) =>
    insertAfterLastLine(
      file,
      t,
      /^\/(services|proto|k8s\/base\/services)\/[a-z0-9-]+\/\s/,
      ['', line(`/services/${n.name}/`), line(`/proto/${n.name}/`), line(`/k8s/base/services/${n.name}/`)].join('\n'),
    ),
  );
}

function readme(tree: Tree, n: ServiceNames): void {
  const file = 'README.md';
  if (!tree.exists(file)) return;
  edit(tree, file, (t) =>
    insertAfterLastLine(
      file,
      t,
      /^\| \[[a-z-]+\]\(services\/[a-z-]+\/README\.md\) \|/,
      `| [${n.name}](services/${n.name}/README.md) | its database \`${n.database}\` | gRPC \`${n.packageName}.${n.serviceName}\` | — | — |`,
    ),
  );
}

/** Registers a new service everywhere the platform lists its services. */
export function registerService(tree: Tree, n: ServiceNames): void {
  launcher(tree, n);
  tsconfigs(tree, n);
  envExample(tree, n);
  compose(tree, n);
  kubernetes(tree, n);
  contracts(tree, n);
  codeowners(tree, n);
  readme(tree, n);
}

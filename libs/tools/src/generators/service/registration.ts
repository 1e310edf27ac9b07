import type { Tree } from '@nx/devkit';
import {
  addReplicas,
  anchorError,
  appendToLine,
  codeowners,
  edit,
  insertAfterLastLine,
  insertBeforeLine,
  readmeServiceRow,
  tsconfigReferences,
} from '../text-edits';

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
        '    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),',
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
      '      # Memory settings of the process (ADR 0046), as deploy/launcher/services.mjs gives them to this service.',
      "      NODE_OPTIONS: '--import @clipit/telemetry/register --max-semi-space-size=1 --max-old-space-size=256'",
      "      MALLOC_ARENA_MAX: '2'",
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

function kubernetes(tree: Tree, n: ServiceNames): void {
  const base = 'k8s/base/kustomization.yaml';
  edit(tree, base, (t) => insertAfterLastLine(base, t, /^ {2}- services\//, `  - services/${n.name}`));
  // Its database on each PostgreSQL an overlay can take: the one-replica server's list, and CloudNativePG's
  // role and Database (a managed server's database is the operator's to create, as k8s/README.md says).
  const postgres = 'k8s/components/infra-single/postgres.yaml';
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
  const cluster = 'k8s/components/postgres-cnpg/cluster.yaml';
  if (tree.exists(cluster)) {
    edit(tree, cluster, (t) =>
      insertAfterLastLine(
        cluster,
        t,
        /^ {6}- \{ name: [a-z0-9_]+, ensure: present, login: true, passwordSecret: /,
        `      - { name: ${n.name}, ensure: present, login: true, passwordSecret: { name: clipit-pg-${n.name} } }`,
      ),
    );
    const databases = 'k8s/components/postgres-cnpg/databases.yaml';
    edit(tree, databases, (t) =>
      [
        t.trimEnd(),
        '---',
        'apiVersion: postgresql.cnpg.io/v1',
        'kind: Database',
        'metadata:',
        `  name: clipit-pg-${n.name}`,
        '  labels:',
        '    app.kubernetes.io/name: clipit-pg',
        '    app.kubernetes.io/component: database',
        '    app.kubernetes.io/part-of: clipit',
        'spec:',
        '  cluster:',
        '    name: clipit-pg',
        `  name: ${n.database}`,
        `  owner: ${n.name}`,
        '  ensure: present',
        '  databaseReclaimPolicy: retain',
        '',
      ].join('\n'),
    );
  }
  // Production's replica counts, shared by every production overlay.
  const prod = 'k8s/components/prod-common/kustomization.yaml';
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

/** Registers a new service everywhere the platform lists its services. */
export function registerService(tree: Tree, n: ServiceNames): void {
  launcher(tree, n);
  tsconfigReferences(tree, `services/${n.name}`);
  envExample(tree, n);
  compose(tree, n);
  kubernetes(tree, n);
  contracts(tree, n);
  codeowners(tree, n.team, [`/services/${n.name}/`, `/proto/${n.name}/`, `/k8s/base/services/${n.name}/`]);
  readmeServiceRow(
    tree,
    `| [${n.name}](services/${n.name}/README.md) | its database \`${n.database}\` | gRPC \`${n.packageName}.${n.serviceName}\` | — | — |`,
  );
}

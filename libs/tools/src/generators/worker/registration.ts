import type { Tree } from '@nx/devkit';
import { addReplicas, codeowners, edit, insertAfterLastLine, insertBeforeLine, readmeServiceRow, tsconfigReferences } from '../text-edits';

/** Every name a new worker is known by, derived once from its name. */
export interface WorkerNames {
  /** The queue, the contracts' files: `thumbs` */
  name: string;
  /** services/<worker>, the image, the Deployment, the events' source: `thumbs-worker` */
  worker: string;
  className: string;
  propertyName: string;
  /** Its variables' prefix: `THUMBS_WORKER` */
  prefix: string;
  /** Its contracts' constants: `THUMBS` (THUMBS_QUEUE, THUMBS_TASK_JOB) */
  constant: string;
  queue: string;
  jobName: string;
  eventType: string;
  httpPort: number;
  version: string;
  description: string;
  team: string;
}

// The worker's place everywhere the platform lists its services, edited as text at named anchors (see
// text-edits.ts): a worker is a deployable like a service, with no database, no gRPC and no Service.

function launcher(tree: Tree, n: WorkerNames): void {
  const file = 'deploy/launcher/services.mjs';
  edit(tree, file, (t) =>
    insertBeforeLine(
      file,
      t,
      /^ {4}name: 'gateway',$/,
      [
        '    // No database and no gRPC: it takes jobs from its queue in Redis and publishes events.',
        `    name: '${n.worker}',`,
        '    runtime: runtime({ oldSpaceMb: 256, semiSpaceMb: 1 }),',
        `    httpPortEnv: '${n.prefix}_HTTP_PORT',`,
        `    httpHostEnv: '${n.prefix}_BIND_HOST',`,
        '  },',
        '  {',
      ].join('\n'),
    ),
  );
}

function envExample(tree: Tree, n: WorkerNames): void {
  const file = 'deploy/.env.example';
  const rule = '# ---------------------------------------------------------------------------';
  const p = n.prefix;
  edit(tree, file, (t) => {
    const lines = t.split('\n');
    const gateway = lines.findIndex((l, i) => l === '# gateway' && lines[i - 1] === rule);
    if (gateway < 0) throw new Error(`${file}: cannot find the gateway section; add the new worker there by hand or restore the anchor`);
    lines.splice(
      gateway - 1,
      0,
      rule,
      `# ${n.worker} (BullMQ on Redis: queue \`${n.queue}\`, keys <REDIS_KEY_PREFIX>bull:${n.queue}:*)`,
      rule,
      `# Port of ${n.worker}'s HTTP server: /health/live, /health/ready, /metrics.`,
      `${p}_HTTP_PORT=${n.httpPort}`,
      `# Interface ${n.worker}'s HTTP server binds (127.0.0.1 to keep it off the network).`,
      `${p}_BIND_HOST=0.0.0.0`,
      `# Jobs one ${n.worker} process runs at once; scale out with more processes.`,
      `${p}_CONCURRENCY=2`,
      `# Lock of a running ${n.queue} job in milliseconds, renewed while it runs; a dead worker's job is taken over once it lapses.`,
      `${p}_LOCK_DURATION_MS=30000`,
      `# How often, in milliseconds, ${n.worker} processes look for jobs whose worker died and put them back in the queue.`,
      `${p}_STALLED_INTERVAL_MS=30000`,
      `# Times a ${n.queue} job may lose its worker before BullMQ fails it.`,
      `${p}_MAX_STALLED_COUNT=2`,
      `# Milliseconds ${n.worker} waits after Redis failed a call before it fetches jobs again.`,
      `${p}_RUN_RETRY_DELAY_MS=15000`,
      `# On SIGTERM, seconds running ${n.queue} jobs may go on before they are stopped and put back in the queue.`,
      `${p}_DRAIN_SECONDS=10`,
      `# How long publishing a job's outcome (${n.eventType}) waits for JetStream's acknowledgement, in milliseconds.`,
      `${p}_PUBLISH_TIMEOUT_MS=5000`,
      `# A decided outcome NATS did not take is published again after this many milliseconds, doubling each time (nothing decided again, no attempt used)...`,
      `${p}_PUBLISH_RETRY_MIN_MS=2000`,
      '# ...up to this many milliseconds between tries, for as long as NATS is down.',
      `${p}_PUBLISH_RETRY_MAX_MS=30000`,
      '',
    );
    return lines.join('\n');
  });
}

function compose(tree: Tree, n: WorkerNames): void {
  const file = 'docker-compose.yml';
  edit(tree, file, (t) => {
    const lines = t.split('\n');
    let at = lines.indexOf('  gateway:');
    if (at < 0) throw new Error(`${file}: cannot find the gateway service; add the new worker there by hand or restore the anchor`);
    while (at > 0 && lines[at - 1]!.startsWith('  #')) at -= 1; // above the gateway's own comment
    lines.splice(
      at,
      0,
      `  # ${n.worker}: ${n.description} Jobs from the BullMQ \`${n.queue}\` queue in Redis, events to NATS. No database, no`,
      `  # port to publish. Scale it on its own: docker compose up --scale ${n.worker}=3`,
      `  ${n.worker}:`,
      '    <<: *node-service',
      '    build:',
      '      context: .',
      '      dockerfile: deploy/Dockerfile',
      '      args:',
      `        SERVICE: ${n.worker}`,
      `    image: clipit/${n.worker}:${n.version}`,
      `    # Running jobs get ${n.prefix}_DRAIN_SECONDS (10) to finish on stop, then go back to the queue.`,
      '    stop_grace_period: 30s',
      '    environment:',
      '      <<: *shared-env',
      '      # Memory settings of the process (ADR 0046), as deploy/launcher/services.mjs gives them to this service.',
      "      NODE_OPTIONS: '--import @clipit/telemetry/register --max-semi-space-size=1 --max-old-space-size=256'",
      "      MALLOC_ARENA_MAX: '2'",
      `      ${n.prefix}_HTTP_PORT: '${n.httpPort}'`,
      `      ${n.prefix}_BIND_HOST: 0.0.0.0`,
      '    depends_on:',
      '      nats:',
      '        condition: service_healthy',
      '      redis:',
      '        condition: service_healthy',
      '    healthcheck:',
      "      test: ['CMD', 'node', 'deploy/docker/healthcheck.mjs']",
      '      interval: 10s',
      '      timeout: 5s',
      '      retries: 3',
      '      start_period: 30s',
      '',
    );
    return lines.join('\n');
  });
}

function kubernetes(tree: Tree, n: WorkerNames): void {
  const base = 'k8s/base/kustomization.yaml';
  edit(tree, base, (t) => insertAfterLastLine(base, t, /^ {2}- services\//, `  - services/${n.worker}`));
  // dev's replica counts, and production's (shared by every production overlay).
  for (const overlay of ['k8s/overlays/dev/kustomization.yaml', 'k8s/components/prod-common/kustomization.yaml']) {
    if (tree.exists(overlay)) edit(tree, overlay, (t) => addReplicas(overlay, t, n.worker));
  }
}

function contracts(tree: Tree, n: WorkerNames): void {
  const index = 'libs/contracts/src/index.ts';
  edit(tree, index, (t) =>
    insertAfterLastLine(
      index,
      insertAfterLastLine(index, t, /^export \* from '\.\/events\//, `export * from './events/${n.name}/${n.name}-events.v1.js';`),
      /^export \* from '\.\/queues\//,
      `export * from './queues/${n.name}-queue.js';`,
    ),
  );
  const catalog = 'libs/contracts/src/events/catalog.ts';
  edit(tree, catalog, (t) => {
    const lines = t.split('\n');
    const doc = lines.findIndex((l) => /^ \* Every event type of the platform/.test(l));
    if (doc < 1 || lines[doc - 1] !== '/**') throw new Error(`${catalog}: cannot find the catalog's comment; add the event by hand`);
    lines.splice(doc - 1, 0, `import { ${n.propertyName}TaskDoneV1 } from './${n.name}/${n.name}-events.v1.js';`);
    return insertBeforeLine(
      catalog,
      lines.join('\n'),
      /^\} as const satisfies Record</,
      `  '${n.eventType}': { source: '${n.worker}', version: 1, schema: ${n.propertyName}TaskDoneV1 },`,
    );
  });
}

/** Registers a new worker everywhere the platform lists its deployables. */
export function registerWorker(tree: Tree, n: WorkerNames): void {
  launcher(tree, n);
  tsconfigReferences(tree, `services/${n.worker}`);
  envExample(tree, n);
  compose(tree, n);
  kubernetes(tree, n);
  contracts(tree, n);
  codeowners(tree, n.team, [`/services/${n.worker}/`, `/k8s/base/services/${n.worker}/`]);
  readmeServiceRow(
    tree,
    `| [${n.worker}](services/${n.worker}/README.md) | no tables; jobs on the BullMQ \`${n.queue}\` queue | nothing (HTTP only for health and metrics) | \`${n.eventType}\` | \`${n.jobName}\` jobs |`,
  );
}

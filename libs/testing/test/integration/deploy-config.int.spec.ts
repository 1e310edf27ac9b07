// The deployment configuration agrees with itself: docker-compose.yml is valid, the Kubernetes manifests
// parse and build, every variable they set is a documented one (deploy/.env.example), every Deployment has
// probes and resource requests, each overlay runs the servers its components name (ADR 0054: gRPC through
// headless Services, a trace collector, clustered servers in prod), and the launcher prepares servers and
// databases for real.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { parse, parseAllDocuments } from 'yaml';
import { testInfra } from '../../src/infra.js';
import { freePorts } from '../../src/ports.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const at = (...parts: string[]) => join(ROOT, ...parts);
const rel = (path: string) => relative(ROOT, path);

interface ServiceDef {
  name: string;
  httpPortEnv: string;
  httpHostEnv?: string;
  portEnvs?: string[];
  databaseUrlEnv?: string;
  public?: boolean;
  requiresEnv?: string[];
  runtime: Record<string, string>;
}

type Doc = Record<string, any>;
interface Manifest {
  file: string;
  doc: Doc;
}

// ---------------------------------------------------------------------------------------------------------
// deploy/.env.example: the canonical list
// ---------------------------------------------------------------------------------------------------------
interface EnvEntry {
  key: string;
  value: string;
  comment: string | undefined;
}

function readEnvExample(): EnvEntry[] {
  const lines = readFileSync(at('deploy/.env.example'), 'utf8').split('\n');
  const entries: EnvEntry[] = [];
  lines.forEach((line, i) => {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) return;
    const previous = lines[i - 1] ?? '';
    entries.push({ key: m[1]!, value: m[2]!, comment: previous.startsWith('# ') ? previous.slice(2) : undefined });
  });
  return entries;
}

const ENV = readEnvExample();
const DOCUMENTED = new Set(ENV.map((e) => e.key));
const undocumented = (keys: Iterable<string>) => [...keys].filter((k) => !DOCUMENTED.has(k)).sort();
const defaultOf = (key: string) => ENV.find((e) => e.key === key)?.value;

// ---------------------------------------------------------------------------------------------------------
// YAML helpers
// ---------------------------------------------------------------------------------------------------------
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

function parseYamlFile(file: string): Doc[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d) => d.errors.map((e) => `${rel(file)}: ${e.message}`));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return list.map((d) => d.toJS() as Doc).filter((d) => d !== null && d !== undefined);
}

function envKeysOfGenerator(kustomizationDir: string, generator: Doc): string[] {
  const literals = (generator['literals'] ?? []) as string[];
  const fromEnvFiles = ((generator['envs'] ?? []) as string[]).flatMap((f) =>
    readFileSync(join(kustomizationDir, f), 'utf8')
      .split('\n')
      .filter((l) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l)),
  );
  return [...literals, ...fromEnvFiles].map((l) => l.slice(0, l.indexOf('=')));
}

function workloadContainers(doc: Doc): Doc[] {
  const spec = doc['spec']?.['template']?.['spec'] ?? doc['spec']?.['jobTemplate']?.['spec']?.['template']?.['spec'] ?? {};
  return [...((spec['initContainers'] ?? []) as Doc[]), ...((spec['containers'] ?? []) as Doc[])];
}

/** Problems of one Deployment: probes, requests, documented env keys. */
function deploymentProblems(file: string, doc: Doc): string[] {
  const name = `${rel(file)} Deployment ${doc['metadata']?.['name']}`;
  const problems: string[] = [];
  const containers = (doc['spec']?.['template']?.['spec']?.['containers'] ?? []) as Doc[];
  if (containers.length === 0) problems.push(`${name}: no containers`);
  for (const c of containers) {
    const where = `${name} container ${c['name']}`;
    if (!c['livenessProbe']) problems.push(`${where}: no livenessProbe`);
    if (!c['readinessProbe']) problems.push(`${where}: no readinessProbe`);
    const requests = c['resources']?.['requests'] ?? {};
    if (!requests['cpu'] || !requests['memory']) problems.push(`${where}: resources.requests needs cpu and memory`);
    const keys = ((c['env'] ?? []) as Doc[]).map((e) => e['name'] as string);
    for (const key of undocumented(keys)) problems.push(`${where}: env ${key} is not in deploy/.env.example`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// kubectl kustomize (or a standalone kustomize)
// ---------------------------------------------------------------------------------------------------------
interface KustomizeTool {
  describe: string;
  build: (dir: string) => ReturnType<typeof spawnSync>;
}

function findKustomize(): KustomizeTool | string {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 });
  if (!kubectl.error && kubectl.status === 0) {
    const version = /Kustomize Version: v(\d+)\.(\d+)\.\d+/.exec(kubectl.stdout);
    if (version && Number(version[1]) >= 4) {
      return {
        describe: `kubectl (${kubectl.stdout.split('\n')[0]?.trim()}, kustomize v${version[1]}.${version[2]})`,
        build: (dir) => spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 }),
      };
    }
  }
  const standalone = spawnSync('kustomize', ['version'], { encoding: 'utf8', timeout: 30_000 });
  if (!standalone.error && standalone.status === 0 && /v([4-9]|\d{2,})\./.test(standalone.stdout)) {
    return {
      describe: `kustomize ${standalone.stdout.trim()}`,
      build: (dir) => spawnSync('kustomize', ['build', dir], { encoding: 'utf8', timeout: 60_000 }),
    };
  }
  return (
    'No kustomize 4 or newer found: need kubectl 1.21+ (built-in kustomize) or a standalone kustomize on PATH. ' +
    "Debian's kubernetes-client (kubectl 1.20, kustomize v2.0.3) is too old for these manifests. " +
    (kubectl.error ? 'kubectl: not found. ' : `kubectl: ${(kubectl.stdout || kubectl.stderr).split('\n')[0]}. `) +
    'To skip this one check knowingly, set CLIPIT_SKIP_KUSTOMIZE_BUILD=1.'
  );
}

const KUSTOMIZE = findKustomize();
const skipKustomize = typeof KUSTOMIZE === 'string' && process.env['CLIPIT_SKIP_KUSTOMIZE_BUILD'] === '1';
if (skipKustomize) console.warn(`deploy-config: SKIPPING the kustomize builds: ${KUSTOMIZE}`);

/** Every overlay an operator may apply (k8s/README.md): each is built once and checked by several tests. */
const OVERLAYS = ['dev', 'prod', 'prod-keda', 'prod-managed'] as const;

interface OverlayBuild {
  docs: Doc[];
  kinds: (kind: string) => Doc[];
  configMaps: Set<string>;
  /** clipit-shared-env's data as built: what every service reads first. */
  sharedEnv: Record<string, string | undefined>;
}

const overlayBuilds = new Map<string, OverlayBuild>();
function buildOverlay(overlay: string): OverlayBuild {
  const cached = overlayBuilds.get(overlay);
  if (cached) return cached;
  if (typeof KUSTOMIZE === 'string') throw new Error(KUSTOMIZE);
  const result = KUSTOMIZE.build(at('k8s/overlays', overlay));
  expect({ tool: KUSTOMIZE.describe, status: result.status, stderr: String(result.stderr).trim() }).toEqual({
    tool: KUSTOMIZE.describe,
    status: 0,
    stderr: '',
  });
  const docs = parseAllDocuments(String(result.stdout)).map((d) => d.toJS() as Doc);
  const kinds = (kind: string) => docs.filter((d) => d['kind'] === kind);
  const built = {
    docs,
    kinds,
    configMaps: new Set(kinds('ConfigMap').map((d) => d['metadata']['name'] as string)),
    sharedEnv: configMapOf(docs, 'clipit-shared-env'),
  };
  overlayBuilds.set(overlay, built);
  return built;
}

/** A generated ConfigMap's data by its name before kustomize's hash suffix. */
function configMapOf(docs: Doc[], name: string): Record<string, string | undefined> {
  const cm = docs.find((d) => d['kind'] === 'ConfigMap' && new RegExp(`^${name}(-[a-z0-9]{10})?$`).test(d['metadata']['name']));
  return (cm?.['data'] ?? {}) as Record<string, string>;
}

/** The platform's own Deployments (each labelled a service or a worker by `npm run versions`), not a server's. */
const serviceDeployments = (docs: Doc[]) =>
  docs.filter(
    (d) => d['kind'] === 'Deployment' && ['service', 'worker'].includes(d['metadata']['labels']?.['app.kubernetes.io/component']),
  );

const grpcPortEnv = (s: ServiceDef) => s.portEnvs?.find((e) => e.endsWith('_GRPC_PORT'));

/**
 * Secrets made by the operator, outside kustomize, that whole Deployments read through envFrom, and the
 * variables each one holds (k8s/README.md describes them): the managed servers' addresses, with their keys.
 */
const ENV_SECRETS: Record<string, string[]> = {
  'clipit-otlp': ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_PROTOCOL'],
  'clipit-redis': ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'],
};

/**
 * Where a container's variable comes from, as Kubernetes resolves it: its own `env` first, else the last
 * `envFrom` source that has the key. A ConfigMap's value is given; a Secret (whose values the build does
 * not hold) as `secret <name>`.
 */
function envOf(docs: Doc[], container: Doc, key: string): string | undefined {
  const own = ((container['env'] ?? []) as Doc[]).find((e) => e['name'] === key);
  if (own) return own['value'] ?? (own['valueFrom']?.['secretKeyRef'] ? `secret ${own['valueFrom']['secretKeyRef']['name']}` : undefined);
  let found: string | undefined;
  for (const ref of (container['envFrom'] ?? []) as Doc[]) {
    const cm = ref['configMapRef']?.['name'] as string | undefined;
    const secret = ref['secretRef']?.['name'] as string | undefined;
    const value = cm
      ? (docs.find((d) => d['kind'] === 'ConfigMap' && d['metadata']['name'] === cm)?.['data']?.[key] as string | undefined)
      : undefined;
    if (value !== undefined) found = value;
    if (secret && (ENV_SECRETS[secret] ?? []).includes(key)) found = `secret ${secret}`;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------
let SERVICES: ServiceDef[] = [];
beforeAll(async () => {
  // The launcher's list is plain JavaScript outside this project; load it at run time.
  const mod = (await import(pathToFileURL(at('deploy/launcher/services.mjs')).href)) as { SERVICES: ServiceDef[] };
  SERVICES = mod.SERVICES;
  expect(SERVICES.length).toBeGreaterThan(0);
});

describe('deploy/.env.example', () => {
  it('lists each variable once, each with a one-line comment above it', () => {
    const seen = new Set<string>();
    const duplicates = ENV.filter((e) => (seen.has(e.key) ? true : (seen.add(e.key), false))).map((e) => e.key);
    expect(duplicates).toEqual([]);
    expect(ENV.filter((e) => !e.comment).map((e) => e.key)).toEqual([]);
  });

  it('names every variable the service list refers to', () => {
    const referenced = SERVICES.flatMap((s) => [s.httpPortEnv, s.httpHostEnv, s.databaseUrlEnv, ...(s.portEnvs ?? [])]);
    expect(undocumented(referenced.filter((k): k is string => Boolean(k)))).toEqual([]);
    for (const s of SERVICES) expect(Number(defaultOf(s.httpPortEnv))).toBeGreaterThan(0);
  });
});

describe('docker-compose.yml', () => {
  const composeFile = at('docker-compose.yml');
  const compose = parse(readFileSync(composeFile, 'utf8'), { merge: true }) as Doc;
  const services = compose['services'] as Record<string, Doc>;
  const appServices = Object.entries(services).filter(([, s]) => s['build']?.['dockerfile'] === 'deploy/Dockerfile');

  it('passes `docker-compose config -q`', () => {
    const result = spawnSync('docker-compose', ['-f', composeFile, 'config', '-q'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    if (result.error) {
      throw new Error(
        `docker-compose could not run (${result.error.message}): install it with \`apt-get install -y docker-compose\` (npm test does, as root on Debian).`,
      );
    }
    expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 0, stderr: '' });
  });

  it('has one service built from deploy/Dockerfile per entry of the launcher list, each with a health check', () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(SERVICES.map((s) => s.name).sort());
    for (const [name, s] of appServices) {
      expect({ name, SERVICE: s['build']['args']?.['SERVICE'] }).toEqual({ name, SERVICE: name });
      expect({ name, healthcheck: Boolean(s['healthcheck']?.['test']) }).toEqual({ name, healthcheck: true });
    }
    for (const infra of ['postgres', 'nats', 'redis', 'minio']) {
      expect({ infra, healthcheck: Boolean(services[infra]?.['healthcheck']?.['test']) }).toEqual({ infra, healthcheck: true });
    }
  });

  it('sets only variables listed in deploy/.env.example on the platform services', () => {
    for (const [name, s] of appServices) {
      const env = s['environment'] ?? {};
      const keys = Array.isArray(env) ? (env as string[]).map((l) => l.split('=')[0]!) : Object.keys(env as Doc);
      expect({ service: name, undocumented: undocumented(keys) }).toEqual({ service: name, undocumented: [] });
    }
  });

  it("gives every service the memory settings the launcher's list gives it (ADR 0046)", () => {
    for (const s of SERVICES) {
      expect(Object.keys(s.runtime).sort()).toEqual(['MALLOC_ARENA_MAX', 'NODE_OPTIONS']);
      const env = (services[s.name]?.['environment'] ?? {}) as Record<string, unknown>;
      const set = Object.fromEntries(Object.keys(s.runtime).map((k) => [k, env[k]]));
      expect({ service: s.name, runtime: set }).toEqual({ service: s.name, runtime: s.runtime });
    }
  });

  it("creates every service's database on the postgres container", () => {
    const wanted = databasesWanted(SERVICES);
    const listed = String(services['postgres']?.['environment']?.['CLIPIT_DATABASES'] ?? '').split(/[\s,]+/);
    expect(wanted.filter((d) => !listed.includes(d))).toEqual([]);
  });
});

function databasesWanted(services: ServiceDef[]): string[] {
  return services.filter((s) => s.databaseUrlEnv).map((s) => new URL(defaultOf(s.databaseUrlEnv!) ?? '').pathname.slice(1));
}

describe('k8s/', () => {
  const files = yamlFiles(at('k8s'));
  const parsed = new Map<string, Doc[]>();
  const kustomizations = () => files.filter((f) => /(^|\/)kustomization\.ya?ml$/.test(f));
  /**
   * Files a kustomization names, by role: resources (whole manifests), patches (partial ones) and the files a
   * generator puts into a ConfigMap (a server's own configuration, such as Jaeger's).
   */
  const referenced = (role: 'resources' | 'patches' | 'generated') =>
    new Set(
      kustomizations().flatMap((file) => {
        const k = parsed.get(file)?.[0] ?? {};
        const generated = [...((k['configMapGenerator'] ?? []) as Doc[]), ...((k['secretGenerator'] ?? []) as Doc[])].flatMap((g) =>
          ((g['files'] ?? []) as string[]).map((f) => f.slice(f.indexOf('=') + 1)),
        );
        const paths =
          role === 'resources'
            ? ((k['resources'] ?? []) as string[])
            : role === 'generated'
              ? generated
              : [
                  ...((k['patches'] ?? []) as Doc[]).map((p) => p['path'] as string | undefined),
                  ...((k['patchesStrategicMerge'] ?? []) as string[]),
                  ...((k['patchesJson6902'] ?? []) as Doc[]).map((p) => p['path'] as string | undefined),
                ];
        return paths.filter((p): p is string => Boolean(p)).map((p) => join(dirname(file), p));
      }),
    );
  const manifests = (): Manifest[] =>
    files.filter((f) => referenced('resources').has(f)).flatMap((file) => (parsed.get(file) ?? []).map((doc) => ({ file, doc })));

  beforeAll(() => {
    const errors: string[] = [];
    for (const f of files) {
      try {
        parsed.set(f, parseYamlFile(f));
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    expect(errors).toEqual([]);
  });

  it('parses every YAML file, each one a kustomization, a resource, a patch or a generator file that a kustomization names', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(parsed.size).toBe(files.length);
    const used = new Set([...kustomizations(), ...referenced('resources'), ...referenced('patches'), ...referenced('generated')]);
    expect(files.filter((f) => !used.has(f)).map(rel)).toEqual([]);
  });

  it('names only files and folders that exist in each kustomization', () => {
    const missing: string[] = [];
    for (const file of kustomizations()) {
      const dir = dirname(file);
      const k = parsed.get(file)![0]!;
      const check = (path: string, what: string, folderNeedsKustomization = true) => {
        const full = join(dir, path);
        if (!existsSync(full)) missing.push(`${rel(file)}: ${what} ${path} does not exist`);
        else if (
          folderNeedsKustomization &&
          statSync(full).isDirectory() &&
          !['kustomization.yaml', 'kustomization.yml', 'Kustomization'].some((n) => existsSync(join(full, n)))
        ) {
          missing.push(`${rel(file)}: ${what} ${path} is a folder without a kustomization.yaml`);
        }
      };
      for (const r of (k['resources'] ?? []) as string[]) check(r, 'resource');
      for (const c of (k['components'] ?? []) as string[]) check(c, 'component');
      for (const p of (k['patches'] ?? []) as Doc[]) if (p['path']) check(p['path'] as string, 'patch');
      for (const p of (k['patchesStrategicMerge'] ?? []) as string[]) if (!p.includes('\n')) check(p, 'patch');
      for (const p of (k['patchesJson6902'] ?? []) as Doc[]) if (p['path']) check(p['path'] as string, 'patch');
      for (const g of [...((k['configMapGenerator'] ?? []) as Doc[]), ...((k['secretGenerator'] ?? []) as Doc[])]) {
        for (const f of (g['files'] ?? []) as string[]) check(f.includes('=') ? f.slice(f.indexOf('=') + 1) : f, 'generator file', false);
        for (const f of (g['envs'] ?? []) as string[]) check(f, 'generator env file', false);
      }
    }
    expect(missing).toEqual([]);
  });

  it('sets only variables listed in deploy/.env.example in its ConfigMaps', () => {
    const keys: string[] = [];
    for (const file of kustomizations()) {
      for (const g of (parsed.get(file)![0]!['configMapGenerator'] ?? []) as Doc[]) keys.push(...envKeysOfGenerator(dirname(file), g));
    }
    for (const { doc } of manifests()) if (doc['kind'] === 'ConfigMap') keys.push(...Object.keys(doc['data'] ?? {}));
    expect(keys.length).toBeGreaterThan(0);
    expect(undocumented(new Set(keys))).toEqual([]);
  });

  it('gives every Deployment liveness and readiness probes, resource requests and documented env keys', () => {
    const deployments = manifests().filter((m) => m.doc['kind'] === 'Deployment');
    expect(deployments.length).toBeGreaterThanOrEqual(SERVICES.length);
    expect(deployments.flatMap((m) => deploymentProblems(m.file, m.doc))).toEqual([]);
  });

  it('keeps each service in its own folder, listed in the base, probing the health paths on its HTTP port', () => {
    const base = parsed.get(at('k8s/base/kustomization.yaml'))![0]!;
    for (const s of SERVICES) {
      const dir = at('k8s/base/services', s.name);
      expect({ service: s.name, listed: ((base['resources'] ?? []) as string[]).includes(`services/${s.name}`) }).toEqual({
        service: s.name,
        listed: true,
      });
      const k = parsed.get(join(dir, 'kustomization.yaml'))![0]!;
      const literals = ((k['configMapGenerator'] ?? []) as Doc[]).flatMap((g) => (g['literals'] ?? []) as string[]);
      // The memory settings the launcher's list gives the service (ADR 0046), in its ConfigMap.
      const runtime = Object.fromEntries(
        Object.keys(s.runtime).map((key) => [key, literals.find((l) => l.startsWith(`${key}=`))?.slice(key.length + 1)]),
      );
      expect({ service: s.name, runtime }).toEqual({ service: s.name, runtime: s.runtime });
      const configured = literals.find((l) => l.startsWith(`${s.httpPortEnv}=`))?.split('=')[1] ?? defaultOf(s.httpPortEnv);
      const deployment = manifests().find(
        (m) => m.file.startsWith(dir) && m.doc['kind'] === 'Deployment' && m.doc['metadata']['name'] === s.name,
      );
      expect({ service: s.name, deployment: Boolean(deployment) }).toEqual({ service: s.name, deployment: true });
      const container = workloadContainers(deployment!.doc).find((c) => c['name'] === s.name)!;
      const httpPort = ((container['ports'] ?? []) as Doc[]).find((p) => p['name'] === 'http')?.['containerPort'];
      expect({ service: s.name, httpPort: String(httpPort) }).toEqual({ service: s.name, httpPort: configured });
      expect({
        service: s.name,
        liveness: container['livenessProbe']?.['httpGet'],
        readiness: container['readinessProbe']?.['httpGet'],
      }).toEqual({
        service: s.name,
        liveness: { path: '/health/live', port: 'http' },
        readiness: { path: '/health/ready', port: 'http' },
      });
    }
  });

  it("creates every service's database on the in-cluster postgres, with the same script as compose", () => {
    const postgres = manifests().find((m) => m.doc['kind'] === 'StatefulSet' && m.doc['metadata']['name'] === 'postgres')!;
    const env = (workloadContainers(postgres.doc)[0]!['env'] ?? []) as Doc[];
    const listed = String(env.find((e) => e['name'] === 'CLIPIT_DATABASES')?.['value'] ?? '').split(/[\s,]+/);
    expect(databasesWanted(SERVICES).filter((d) => !listed.includes(d))).toEqual([]);
    expect(readFileSync(at('k8s/components/infra-single/create-databases.sh'), 'utf8')).toBe(
      readFileSync(at('deploy/postgres/create-databases.sh'), 'utf8'),
    );
  });

  describe.each(OVERLAYS)('overlay %s', (overlay) => {
    const test = skipKustomize ? it.skip : it;
    const built = () => buildOverlay(overlay);

    test('builds with kustomize into a consistent set of resources', () => {
      const { docs, kinds, configMaps, sharedEnv } = built();
      const secretsGenerated = new Map(kinds('Secret').map((d) => [d['metadata']['name'] as string, Object.keys(d['data'] ?? {})]));

      expect(kinds('Deployment').flatMap((d) => deploymentProblems(`overlay ${overlay}`, d))).toEqual([]);
      // One Deployment per service; beside them only the servers' own: the dev overlay's mail catcher, which
      // identity's relay names, and Jaeger where the overlay runs it.
      expect(
        serviceDeployments(docs)
          .map((d) => d['metadata']['name'])
          .sort(),
      ).toEqual(SERVICES.map((s) => s.name).sort());
      expect(
        kinds('Deployment')
          .filter((d) => !serviceDeployments(docs).includes(d))
          .map((d) => d['metadata']['name'])
          .sort(),
      ).toEqual({ dev: ['jaeger', 'mailpit'], prod: ['jaeger'], 'prod-keda': ['jaeger'], 'prod-managed': [] }[overlay]);
      expect(kinds('HorizontalPodAutoscaler').length).toBeGreaterThan(0);
      expect(kinds('Ingress').length).toBe(1);

      const problems: string[] = [];
      for (const d of docs) {
        for (const c of workloadContainers(d)) {
          const where = `${d['kind']} ${d['metadata']['name']}/${c['name']}`;
          if (!/:[^/]+$/.test(String(c['image'])) || String(c['image']).endsWith(':latest'))
            problems.push(`${where}: image ${c['image']} has no pinned tag`);
          for (const ref of (c['envFrom'] ?? []) as Doc[]) {
            const name = ref['configMapRef']?.['name'] as string | undefined;
            if (name && !configMaps.has(name)) problems.push(`${where}: envFrom ConfigMap ${name} is not in the build`);
            const secret = ref['secretRef']?.['name'] as string | undefined;
            if (secret && !(secret in ENV_SECRETS)) problems.push(`${where}: envFrom Secret ${secret} is not one k8s/README.md describes`);
          }
          for (const e of (c['env'] ?? []) as Doc[]) {
            const cm = e['valueFrom']?.['configMapKeyRef']?.['name'] as string | undefined;
            if (cm && !configMaps.has(cm)) problems.push(`${where}: ConfigMap ${cm} is not in the build`);
            const secret = e['valueFrom']?.['secretKeyRef'] as Doc | undefined;
            if (!secret) continue;
            if (secret['name'] !== 'clipit-secrets') problems.push(`${where}: secret ${secret['name']} is not clipit-secrets`);
            // dev generates the Secret; prod expects it to exist (k8s/README.md lists its keys). An optional
            // key (a feature a cluster may leave off, like the Solana treasury key) need not be there.
            if (
              overlay === 'dev' &&
              secret['optional'] !== true &&
              !(secretsGenerated.get('clipit-secrets') ?? []).includes(secret['key'] as string)
            ) {
              problems.push(`${where}: clipit-secrets has no key ${secret['key']}`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
      if (overlay !== 'dev') expect(secretsGenerated.size).toBe(0);
      // Everything lands in the platform's namespace, whichever file (base or component) it came from.
      expect(
        docs
          .filter((d) => d['kind'] !== 'Namespace' && d['metadata']?.['namespace'] !== 'clipit')
          .map((d) => `${d['kind']} ${d['metadata']?.['name']}`),
      ).toEqual([]);

      // The media worker has exactly one autoscaler: CPU, or KEDA on the queue's waiting list.
      const workerScalers = docs.filter(
        (d) =>
          ['HorizontalPodAutoscaler', 'ScaledObject'].includes(d['kind']) && d['spec']?.['scaleTargetRef']?.['name'] === 'media-worker',
      );
      expect(workerScalers.map((d) => d['kind'])).toEqual([overlay === 'prod-keda' ? 'ScaledObject' : 'HorizontalPodAutoscaler']);
      if (overlay === 'prod-keda') {
        // Prod's Redis is behind Sentinel: KEDA asks the same sentinels as the services, from its own namespace.
        const [trigger] = workerScalers[0]!['spec']['triggers'] as Doc[];
        const sentinels = sharedEnv['REDIS_SENTINELS']!.split(',').map((a) => {
          const [host, port] = a.split(':');
          return `${host}.clipit.svc.cluster.local:${port}`;
        });
        expect(trigger).toEqual({
          type: 'redis-sentinel',
          metadata: expect.objectContaining({
            // BullMQ's waiting list of the `media` queue under the platform's key prefix (@clipit/media-queue mediaQueuePrefix).
            listName: `${sharedEnv['REDIS_KEY_PREFIX']}bull:media:wait`,
            addresses: sentinels.join(','),
            sentinelMaster: sharedEnv['REDIS_SENTINEL_MASTER'],
          }),
        });
      }
    });

    test('gives each gRPC service a headless <name>-grpc Service, and names every gRPC address as dns:///<name>-grpc:<port>', () => {
      const { docs, kinds } = built();
      const grpcServices = SERVICES.filter((s) => grpcPortEnv(s));
      expect(grpcServices.length).toBeGreaterThan(0);
      for (const s of grpcServices) {
        const port = Number(configMapOf(docs, `${s.name}-env`)[grpcPortEnv(s)!] ?? defaultOf(grpcPortEnv(s)!));
        const headless = kinds('Service').find((d) => d['metadata']['name'] === `${s.name}-grpc`);
        expect({ service: s.name, headless: headless?.['spec'] }).toEqual({
          service: s.name,
          headless: expect.objectContaining({
            clusterIP: 'None',
            // A pod that is not ready is left out of the answer, so no call goes to one still starting.
            publishNotReadyAddresses: false,
            selector: { 'app.kubernetes.io/name': s.name },
            ports: [expect.objectContaining({ name: 'grpc', port, targetPort: 'grpc' })],
          }),
        });
        const container = workloadContainers(serviceDeployments(docs).find((d) => d['metadata']['name'] === s.name)!).find(
          (c) => c['name'] === s.name,
        )!;
        const grpc = ((container['ports'] ?? []) as Doc[]).find((p) => p['name'] === 'grpc');
        expect({ service: s.name, containerPort: grpc?.['containerPort'] }).toEqual({ service: s.name, containerPort: port });
      }
      // Every address a caller is given: a ClusterIP would balance per connection, not per call (ADR 0054).
      const headlessPorts = new Map(
        kinds('Service')
          .filter((d) => d['spec']?.['clusterIP'] === 'None')
          .map((d) => [d['metadata']['name'] as string, ((d['spec']['ports'] ?? []) as Doc[]).map((p) => p['port'] as number)]),
      );
      const urls = kinds('ConfigMap').flatMap((cm) =>
        Object.entries((cm['data'] ?? {}) as Record<string, string>)
          .filter(([key]) => key.endsWith('_GRPC_URL'))
          .map(([key, value]) => ({ where: `${cm['metadata']['name']} ${key}`, value })),
      );
      expect(urls.length).toBeGreaterThanOrEqual(grpcServices.length);
      const wrong = urls.filter(({ value }) => {
        const m = /^dns:\/\/\/([a-z0-9-]+-grpc):(\d+)$/.exec(value);
        return !m || !(headlessPorts.get(m[1]!) ?? []).includes(Number(m[2]));
      });
      expect(wrong).toEqual([]);
    });

    test('wires every service to the trace collector (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
      const { docs, kinds, sharedEnv } = built();
      // In-cluster Jaeger where the overlay runs it; prod-managed reads the collector's address (and any key it
      // wants in OTEL_EXPORTER_OTLP_HEADERS) from the Secret clipit-otlp the operator makes (k8s/README.md).
      const expected = overlay === 'prod-managed' ? 'secret clipit-otlp' : 'http://jaeger:4318';
      for (const d of serviceDeployments(docs)) {
        const container = workloadContainers(d).find((c) => c['name'] === d['metadata']['name'])!;
        expect({ service: d['metadata']['name'], endpoint: envOf(docs, container, 'OTEL_EXPORTER_OTLP_ENDPOINT') }).toEqual({
          service: d['metadata']['name'],
          endpoint: expected,
        });
      }
      if (overlay !== 'prod-managed') {
        const jaeger = kinds('Service').find((d) => d['metadata']['name'] === 'jaeger');
        expect(((jaeger?.['spec']?.['ports'] ?? []) as Doc[]).map((p) => p['port'])).toContain(4318);
      }
      // Sampling: every trace in dev, 1 % in production, the same ratio in every process.
      expect({ sampler: sharedEnv['OTEL_TRACES_SAMPLER'], ratio: sharedEnv['OTEL_TRACES_SAMPLER_ARG'] }).toEqual(
        overlay === 'dev' ? { sampler: 'parentbased_always_on', ratio: undefined } : { sampler: 'parentbased_traceidratio', ratio: '0.01' },
      );
    });

    test('runs its servers as its components say: one replica each in dev, clustered or managed in production', () => {
      const { docs, kinds, sharedEnv } = built();
      const statefulSets = Object.fromEntries(kinds('StatefulSet').map((d) => [d['metadata']['name'] as string, d['spec']['replicas']]));
      if (overlay === 'dev') {
        expect(statefulSets).toEqual({ postgres: 1, nats: 1, redis: 1, minio: 1 });
        expect(kinds('Cluster')).toEqual([]);
        return;
      }
      // A 3-node JetStream cluster keeping 3 copies of the events stream, every node in NATS_URL.
      expect({ nats: statefulSets['nats'], streamReplicas: sharedEnv['EVENTS_STREAM_REPLICAS'] }).toEqual({ nats: 3, streamReplicas: '3' });
      expect(sharedEnv['NATS_URL']!.split(',')).toEqual([0, 1, 2].map((i) => `nats://nats-${i}.nats:4222`));
      // No one-replica server left: PostgreSQL is the operator's (or managed), Redis has failover, objects go to S3.
      expect(kinds('StatefulSet').filter((d) => d['spec']['replicas'] === 1)).toEqual([]);
      expect(statefulSets['postgres']).toBeUndefined();
      expect(statefulSets['minio']).toBeUndefined();
      expect(sharedEnv['S3_ENDPOINT']).toMatch(/^https:\/\//);
      if (overlay === 'prod-managed') {
        expect(Object.keys(statefulSets)).toEqual(['nats']);
        expect([...kinds('Cluster'), ...kinds('Database')]).toEqual([]);
        // The managed Redis's URL (with its password) comes from the Secret clipit-redis, over the shared default.
        for (const d of serviceDeployments(docs)) {
          const container = workloadContainers(d).find((c) => c['name'] === d['metadata']['name'])!;
          expect({ service: d['metadata']['name'], redis: envOf(docs, container, 'REDIS_URL') }).toEqual({
            service: d['metadata']['name'],
            redis: 'secret clipit-redis',
          });
        }
        return;
      }
      // Redis: 3 pods, each a server and a sentinel; the services find the master through the sentinels.
      const redis = kinds('StatefulSet').find((d) => d['metadata']['name'] === 'redis')!;
      expect({
        replicas: redis['spec']['replicas'],
        containers: workloadContainers(redis).map((c) => c['name']),
        sentinels: sharedEnv['REDIS_SENTINELS']!.split(','),
        master: sharedEnv['REDIS_SENTINEL_MASTER'],
      }).toEqual({
        replicas: 3,
        containers: ['configure', 'redis', 'sentinel'],
        sentinels: [0, 1, 2].map((i) => `redis-${i}.redis:26379`),
        master: 'clipit',
      });
      // PostgreSQL: CloudNativePG's Cluster of 3 with quorum synchronous commits, and a Database for each
      // service that has one in the launcher's list, owned by a role the Cluster manages.
      const [cluster, ...others] = kinds('Cluster');
      expect(others).toEqual([]);
      expect(cluster!['apiVersion']).toBe('postgresql.cnpg.io/v1');
      expect({ instances: cluster!['spec']['instances'], synchronous: cluster!['spec']['postgresql']?.['synchronous'] }).toEqual({
        instances: 3,
        synchronous: { method: 'any', number: 1, dataDurability: 'required' },
      });
      const roles = new Set(((cluster!['spec']['managed']?.['roles'] ?? []) as Doc[]).map((r) => r['name'] as string));
      const databases = kinds('Database').map((d) => ({
        cluster: d['spec']['cluster']?.['name'],
        database: d['spec']['name'],
        ownerIsManaged: roles.has(d['spec']['owner'] as string),
      }));
      expect(databases.sort((a, b) => a.database.localeCompare(b.database))).toEqual(
        databasesWanted(SERVICES)
          .sort()
          .map((database) => ({ cluster: cluster!['metadata']['name'], database, ownerIsManaged: true })),
      );
    });
  });
});

describe('deploy/launcher/start.mjs --check', () => {
  const { runId, postgresUrl, natsUrl, redisUrl } = testInfra();
  const database = `clipit_${runId}_launcher`;
  const launch = (env: Record<string, string>) =>
    spawnSync(process.execPath, [at('deploy/launcher/start.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        NO_COLOR: '1',
        IDENTITY_DATABASE_URL: `${postgresUrl}/${database}`,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        ...env,
      },
    });

  afterAll(async () => {
    const client = new pg.Client({ connectionString: `${postgresUrl}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await client.end();
  });

  it("finds the servers up and creates each service's database, once", async () => {
    for (const attempt of [1, 2]) {
      const result = launch({});
      expect({ attempt, status: result.status, stderr: result.stderr }).toEqual({ attempt, status: 0, stderr: '' });
      expect(result.stdout).toMatch(/PostgreSQL at .*: ok/);
      expect(result.stdout).toMatch(/NATS \(JetStream\) at .*: ok/);
      expect(result.stdout).toMatch(/Redis at .*: ok/);
      if (attempt === 1) expect(result.stdout).toContain(`created database ${database}`);
      else expect(result.stdout).not.toContain('created database');
    }
    const client = new pg.Client({ connectionString: `${postgresUrl}/postgres` });
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    await client.end();
    expect(rowCount).toBe(1);
  });

  it('names the server that does not answer and exits 1 (a remote one: it never tries to start those)', () => {
    // 192.0.2.0/24 is reserved for documentation: nothing answers there.
    const result = launch({ REDIS_URL: 'redis://192.0.2.1:6379' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Redis at redis://192.0.2.1:6379');
    expect(result.stderr).toContain('or point REDIS_URL (in .env) at a server that runs');
  });
});

// ---------------------------------------------------------------------------------------------------------
// The start-and-stop part of the launcher, on a copy of it whose services are small stand-ins: each serves
// /health/ready on its configured port, logs to stdout and stderr, and exits 0 on SIGTERM. There is one
// per entry of the launcher's list; the gateway stand-in refuses to start unless identity is already
// ready, so start order is checked too.
// ---------------------------------------------------------------------------------------------------------
const STAND_IN = `
import http from 'node:http';
const name = process.argv[2];
const portEnv = process.argv[3];
const port = Number(process.env[portEnv]);
if (name === 'gateway') {
  const res = await fetch('http://127.0.0.1:' + process.env.IDENTITY_HTTP_PORT + '/health/ready').catch(() => undefined);
  if (res?.status !== 200) { console.error('identity is not ready'); process.exit(2); }
}
let ready = false;
http.createServer((req, res) => {
  res.statusCode = req.url === '/health/live' || (req.url === '/health/ready' && ready) ? 200 : 503;
  res.end(String(res.statusCode));
}).listen(port, '127.0.0.1', () => {
  console.log('listening on ' + port);
  console.error('a line on stderr');
  setTimeout(() => { ready = true; }, 300);
});
const crashAfter = Number(process.env['STANDIN_' + name.toUpperCase() + '_CRASH_MS'] ?? 0);
if (crashAfter) setTimeout(() => process.exit(3), crashAfter);
process.on('SIGTERM', () => { console.log('stopping on SIGTERM'); process.exit(0); });
`;

const freePort = async (): Promise<number> => (await freePorts(1))[0]!;

describe('deploy/launcher/start.mjs starting and stopping services (stand-in services)', () => {
  const { runId, postgresUrl, natsUrl, redisUrl } = testInfra();
  const database = `clipit_${runId}_launcherstart`;
  let fixture: string;

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'clipit-launcher-'));
    mkdirSync(join(fixture, 'deploy/launcher'), { recursive: true });
    for (const f of readdirSync(at('deploy/launcher')).filter((n) => n.endsWith('.mjs')))
      copyFileSync(at('deploy/launcher', f), join(fixture, 'deploy/launcher', f));
    copyFileSync(at('deploy/.env.example'), join(fixture, 'deploy/.env.example'));
    symlinkSync(at('node_modules'), join(fixture, 'node_modules'), 'dir');
    writeFileSync(
      join(fixture, 'package.json'),
      JSON.stringify({ name: 'launcher-fixture', private: true, type: 'module', scripts: { build: 'node -e "console.log(1 + 1)"' } }),
    );
    for (const { name, httpPortEnv } of SERVICES) {
      mkdirSync(join(fixture, 'services', name, 'dist'), { recursive: true });
      writeFileSync(
        join(fixture, 'services', name, 'dist/main.js'),
        `process.argv[2] = '${name}';\nprocess.argv[3] = '${httpPortEnv}';\n${STAND_IN}`,
      );
    }
  });

  afterAll(async () => {
    rmSync(fixture, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: `${postgresUrl}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await client.end();
  });

  async function launch(extraEnv: Record<string, string>) {
    const ports: Record<string, number> & { IDENTITY_HTTP_PORT: number; GATEWAY_PORT: number } = {
      IDENTITY_HTTP_PORT: await freePort(),
      GATEWAY_PORT: await freePort(),
    };
    for (const name of SERVICES.flatMap((s) => [s.httpPortEnv, ...(s.portEnvs ?? [])])) ports[name] ??= await freePort();
    // The stand-ins serve no API, so the demo seed is skipped.
    const child = spawn(process.execPath, [join(fixture, 'deploy/launcher/start.mjs'), '--no-seed'], {
      cwd: fixture,
      env: {
        ...process.env,
        NO_COLOR: '1',
        IDENTITY_DATABASE_URL: `${postgresUrl}/${database}`,
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        // Every service's required credentials (requiresEnv), so the launcher starts them all.
        ...Object.fromEntries(SERVICES.flatMap((s) => s.requiresEnv ?? []).map((k) => [k, 'launcher-test-value'])),
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const output = () => ({ stdout, stderr });
    const waitFor = async (text: string, ms = 30_000) => {
      const deadline = Date.now() + ms;
      while (!stdout.includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (!stdout.includes(text)) throw new Error(`launcher never printed "${text}":\n${stdout}\n${stderr}`);
    };
    return { child, ports, exited, output, waitFor };
  }

  const answers = async (port: number) =>
    fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );

  it('starts every service (identity before gateway), prefixes their output, prints the URL, and stops them all on SIGTERM', async () => {
    const run = await launch({});
    await run.waitFor('CLIP IT is up');
    // The lines after it may come in a later chunk of the pipe.
    await run.waitFor('Mail (verification and password reset links)');
    const { stdout, stderr } = run.output();
    expect(stdout).toContain(`CLIP IT is up: http://localhost:${run.ports.GATEWAY_PORT}`);
    // Where a newcomer finds a verification or reset link without a mail server (the development outbox).
    expect(stdout).toMatch(/Mail \(verification and password reset links\): not sent; each message is written to \S*\/\.data\/mail/);
    for (const { name } of SERVICES) expect(stdout).toMatch(new RegExp(`^\\[${name}\\] +listening on \\d+$`, 'm'));
    expect(stderr).toMatch(/^\[identity\] +a line on stderr$/m);
    expect(stdout.indexOf('identity is ready')).toBeLessThan(stdout.indexOf('starting gateway'));
    expect(await answers(run.ports.GATEWAY_PORT)).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    for (const { name } of SERVICES) expect(run.output().stdout).toMatch(new RegExp(`^\\[${name}\\] +stopping on SIGTERM$`, 'm'));
    expect(await answers(run.ports.IDENTITY_HTTP_PORT)).toBe(false);
    expect(await answers(run.ports.GATEWAY_PORT)).toBe(false);
  });

  it('restarts a service that dies with a growing delay, and gives up, stopping the others, when it keeps dying', async () => {
    // The stand-in gateway exits 1.5 s after each start: restarted after 1 s, 2 s, 4 s, 8 s, then given up on
    // at its 5th crash (within 2 minutes), about 23 s in all.
    const run = await launch({ STANDIN_GATEWAY_CRASH_MS: '1500' });
    await run.waitFor('CLIP IT is up');
    await run.waitFor('gateway is ready again (attempt 1');
    expect(await answers(run.ports.IDENTITY_HTTP_PORT)).toBe(true);
    expect(await run.exited).toBe(1);
    const { stdout, stderr } = run.output();
    for (const [attempt, delay] of [
      [1, 1],
      [2, 2],
      [3, 4],
      [4, 8],
    ]) {
      expect(stderr).toContain(`gateway exited unexpectedly (exit code 3): restarting it in ${delay} s (attempt ${attempt})`);
    }
    expect(stderr).toContain('gateway keeps crashing (5 times within 120 s, the last with exit code 3): giving up');
    expect(stderr).toMatch(/its last output:\n +listening on \d+\n +a line on stderr/);
    expect(stdout).toMatch(/^\[identity\] +stopping on SIGTERM$/m);
    expect(await answers(run.ports.IDENTITY_HTTP_PORT)).toBe(false);
  });

  it('names a program a service needs that is not there (ffmpeg for the media worker), before building anything', async () => {
    const run = await launch({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('/nonexistent/ffmpeg (FFMPEG_PATH, for media-worker): install it with apt-get install -y ffmpeg');
    expect(run.output().stdout).not.toContain('building');
  });

  it('fails, naming the service, when one exits before it is ready', async () => {
    const run = await launch({ STANDIN_IDENTITY_CRASH_MS: '100' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('identity exited (3) before the platform was up');
    expect(run.output().stdout).not.toContain('starting gateway');
  });
});

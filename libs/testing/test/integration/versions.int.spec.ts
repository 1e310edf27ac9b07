// Each deployable ships under its own version: a service's image tag (docker-compose.yml and every Kubernetes
// overlay) and its app.kubernetes.io labels come from its package.json, a web app's build says which version
// it is, and bumping one service's version rewrites that service's lines and nothing else
// (scripts/versions.mjs, `npm run versions`).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

type Doc = Record<string, any>;
interface Deployable {
  name: string;
  kind: 'service' | 'web-app';
  folder: string;
  version: string;
}
interface Release {
  image: string;
  tag: string;
  labels: Record<string, string>;
}
interface VersionsModule {
  deployables(root: string): Deployable[];
  releaseOf(service: Deployable): Release;
  syncVersions(root: string, options?: { check?: boolean }): { stale: string[]; problems: string[] };
}

let versions: VersionsModule;
let all: Deployable[];
let services: Deployable[];
beforeAll(async () => {
  // Plain JavaScript outside this project (scripts/); loaded at run time like the launcher's service list.
  versions = (await import(pathToFileURL(join(ROOT, 'scripts/versions.mjs')).href)) as VersionsModule;
  all = versions.deployables(ROOT);
  services = all.filter((d) => d.kind === 'service');
});

const versionOf = (folder: string) => (JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { version: string }).version;

describe('versions', () => {
  it('finds every service and web app, each with a version usable as an image tag and a label value', () => {
    const folders = (dir: string) =>
      readdirSync(join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `${dir}/${e.name}`);
    expect(all.map((d) => d.folder).sort()).toEqual([...folders('services'), ...folders('frontends')].sort());
    for (const d of all)
      expect({ folder: d.folder, version: d.version }).toEqual({
        folder: d.folder,
        version: expect.stringMatching(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/),
      });
  });

  it('has written what `npm run versions` would write (npm test checks the same)', () => {
    expect(versions.syncVersions(ROOT, { check: true })).toEqual({ stale: [], problems: [] });
  });

  it("tags each service's image in docker-compose.yml with its version", () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Doc;
    for (const s of services) {
      expect({ service: s.name, image: compose['services'][s.name]?.['image'] }).toEqual({
        service: s.name,
        image: `clipit/${s.name}:${versionOf(s.folder)}`,
      });
    }
  });

  describe.each(['dev', 'prod', 'prod-keda'])('kubectl kustomize k8s/overlays/%s', (overlay) => {
    it("runs each service's own version and labels every resource of its folder with it, never a selector", () => {
      const build = spawnSync('kubectl', ['kustomize', join(ROOT, 'k8s/overlays', overlay)], { encoding: 'utf8', timeout: 60_000 });
      if (build.error) throw new Error(`kubectl could not run (${build.error.message}): the deploy-config test says what to install`);
      expect({ status: build.status, stderr: build.stderr.trim() }).toEqual({ status: 0, stderr: '' });
      const docs = parseAllDocuments(build.stdout).map((d) => d.toJS() as Doc);
      for (const s of services) {
        const version = versionOf(s.folder);
        const labels = {
          'app.kubernetes.io/name': s.name,
          'app.kubernetes.io/version': version,
          'app.kubernetes.io/component': s.name.endsWith('-worker') ? 'worker' : 'service',
          'app.kubernetes.io/part-of': 'clipit',
        };
        const deployment = docs.find((d) => d['kind'] === 'Deployment' && d['metadata']['name'] === s.name)!;
        const container = (deployment['spec']['template']['spec']['containers'] as Doc[]).find((c) => c['name'] === s.name)!;
        expect({ service: s.name, image: container['image'] }).toEqual({ service: s.name, image: `clipit/${s.name}:${version}` });
        expect({ service: s.name, pods: deployment['spec']['template']['metadata']['labels'] }).toEqual({
          service: s.name,
          pods: expect.objectContaining(labels),
        });
        expect({ service: s.name, selector: deployment['spec']['selector']['matchLabels'] }).toEqual({
          service: s.name,
          selector: { 'app.kubernetes.io/name': s.name },
        });
        // Every resource of the service (its Service, autoscaler, disruption budget, ConfigMap) says which release it belongs to.
        const own = docs.filter((d) => d['metadata']?.['labels']?.['app.kubernetes.io/name'] === s.name && d['kind'] !== 'ScaledObject');
        expect(own.length).toBeGreaterThan(1);
        for (const d of own)
          expect({ resource: `${d['kind']} ${d['metadata']['name']}`, labels: d['metadata']['labels'] }).toEqual({
            resource: `${d['kind']} ${d['metadata']['name']}`,
            labels: expect.objectContaining(labels),
          });
      }
    });
  });
});

describe('shipping one service', () => {
  let copy: string;
  // The files versions.mjs reads and writes, in a scratch copy of the workspace.
  const files = () => [
    'docker-compose.yml',
    ...all.map((d) => `${d.folder}/package.json`),
    ...services.map((s) => `k8s/base/services/${s.name}/kustomization.yaml`),
  ];

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'clipit-versions-'));
    for (const f of files()) {
      mkdirSync(dirname(join(copy, f)), { recursive: true });
      cpSync(join(ROOT, f), join(copy, f));
    }
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const bump = (service: string, version: string) => {
    const file = join(copy, 'services', service, 'package.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"version": "[^"]+"/, `"version": "${version}"`));
  };

  it("changes only that service's kustomization and its image line in docker-compose.yml", () => {
    const before = new Map(files().map((f) => [f, readFileSync(join(copy, f), 'utf8')]));
    bump('identity', '0.4.2');
    expect(versions.syncVersions(copy)).toEqual({
      stale: ['k8s/base/services/identity/kustomization.yaml', 'docker-compose.yml'],
      problems: [],
    });
    const changedLines = (f: string) => {
      const old = before.get(f)!.split('\n');
      return readFileSync(join(copy, f), 'utf8')
        .split('\n')
        .filter((line, i) => line !== old[i]);
    };
    expect(changedLines('docker-compose.yml')).toEqual(['    image: clipit/identity:0.4.2']);
    expect(changedLines('k8s/base/services/identity/kustomization.yaml')).toEqual([
      '    newTag: 0.4.2',
      '      app.kubernetes.io/version: 0.4.2',
    ]);
    expect(versions.syncVersions(copy, { check: true })).toEqual({ stale: [], problems: [] });
  });

  it('refuses a version that cannot be an image tag or a label value', () => {
    bump('submissions', '1.0.0+build.7');
    const { problems } = versions.syncVersions(copy);
    expect(problems).toEqual([expect.stringContaining('services/submissions/package.json: version "1.0.0+build.7" must look like 1.2.3')]);
  });
});

describe('a web app', () => {
  it('publishes its version: in mf-manifest.json and in the build id the shell shows', () => {
    const out = mkdtempSync(join(tmpdir(), 'clipit-remote-build-'));
    try {
      // rspack builds the public remote into a scratch folder, in its own Node process like `npm run build:web`.
      const script = `
        import { rspack } from '@rspack/core';
        const { default: config } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'frontends/public/rspack.config.mjs')).href)});
        const options = config({}, { mode: 'production' });
        options.output.path = ${JSON.stringify(out)};
        const stats = await new Promise((resolve, reject) => rspack(options).run((err, s) => (err ? reject(err) : resolve(s))));
        if (stats.hasErrors()) { console.error(stats.toString('errors-only')); process.exit(1); }
      `;
      const build = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, CLIPIT_BUILD_ID: 'test-build' },
      });
      expect({ status: build.status, stderr: build.stderr.replace(/^.*Manifest will use absolute path.*\n?/gm, '').trim() }).toEqual({
        status: 0,
        stderr: '',
      });
      const version = versionOf('frontends/public');
      const manifest = JSON.parse(readFileSync(join(out, 'mf-manifest.json'), 'utf8')) as Doc;
      expect(manifest['metaData']['buildInfo']).toEqual(expect.objectContaining({ buildName: '@clipit/public', buildVersion: version }));
      const chunks = readdirSync(join(out, 'js')).map((f) => readFileSync(join(out, 'js', f), 'utf8'));
      expect(chunks.some((text) => text.includes(JSON.stringify(`${version}+test-build`)))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

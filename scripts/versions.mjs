// `npm run versions`: each deployable's version lives in its own package.json and nowhere else by hand.
// From it this script writes, for every service (services/<name>/):
//   - k8s/base/services/<name>/kustomization.yaml: `images` (clipit/<name> tagged with the version) and
//     `labels` (app.kubernetes.io/name, version, component, part-of on every resource and pod template);
//   - docker-compose.yml: the tag of the service's `image: clipit/<name>:<tag>`.
// Web apps (frontends/<name>/) carry theirs into their build (mf-manifest.json and the build id), so they
// have nothing written here. Bumping one service's version therefore changes only that service's lines.
// With --check nothing is written: it fails, naming the files, when they differ from what it would write
// (a step of `npm test`). A new service needs no entry here: its folders are found.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMap, isScalar, parseDocument } from 'yaml';

export const PART_OF = 'clipit';
export const IMAGE_PREFIX = 'clipit/';
// A version must be usable as it is as a Docker tag and a Kubernetes label value: semver without build metadata ('+').
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z][0-9A-Za-z.-]{0,40})?$/;
const GENERATED_NOTE =
  ' images and labels: from the version in services/%s/package.json, written by `npm run versions`.\n' +
  ' Change the version there, then run it; never edit them here.';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * The workspace's deployables: each service (its own image and Deployment) and each web app (its own build,
 * served by the gateway or a CDN), with the version its package.json carries.
 */
export function deployables(root) {
  const list = [];
  for (const [dir, kind] of [
    ['services', 'service'],
    ['frontends', 'web-app'],
  ]) {
    if (!existsSync(join(root, dir))) continue;
    for (const name of readdirSync(join(root, dir)).sort()) {
      const manifest = join(root, dir, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = readJson(manifest);
      list.push({ name, kind, folder: `${dir}/${name}`, packageName: pkg.name, version: pkg.version });
    }
  }
  return list;
}

/** Problems with a deployable's version (none when it can be a Docker tag and a label value). */
export function versionProblems(d) {
  if (typeof d.version !== 'string') return [`${d.folder}/package.json has no "version"`];
  if (!VERSION.test(d.version))
    return [
      `${d.folder}/package.json: version "${d.version}" must look like 1.2.3 or 1.2.3-rc.1 (it is also the image tag and a label value)`,
    ];
  return [];
}

/** What a service is within the platform: workers take jobs and serve no API. */
export const componentOf = (service) => (service.name.endsWith('-worker') ? 'worker' : 'service');

/** The image and the Kubernetes labels of one service, all from its package.json. */
export function releaseOf(service) {
  return {
    image: `${IMAGE_PREFIX}${service.name}`,
    tag: service.version,
    labels: {
      'app.kubernetes.io/name': service.name,
      'app.kubernetes.io/version': service.version,
      'app.kubernetes.io/component': componentOf(service),
      'app.kubernetes.io/part-of': PART_OF,
    },
  };
}

/** A service's kustomization.yaml with its `images` and `labels` set from its release; everything else kept. */
export function renderKustomization(text, service) {
  const release = releaseOf(service);
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) throw new Error(`k8s/base/services/${service.name}/kustomization.yaml is not a YAML map`);
  doc.set('images', doc.createNode([{ name: release.image, newTag: release.tag }]));
  // On every resource and pod template (pods and their metrics carry the version), never on selectors: a
  // Deployment's selector cannot change, and the version changes with every release.
  doc.set('labels', doc.createNode([{ pairs: release.labels, includeSelectors: false, includeTemplates: true }]));
  const images = doc.contents.items.find((pair) => (isScalar(pair.key) ? pair.key.value : pair.key) === 'images');
  if (!isScalar(images.key)) images.key = doc.createNode('images');
  Object.assign(images.key, { spaceBefore: true, commentBefore: GENERATED_NOTE.replace('%s', service.name) });
  return doc.toString({ lineWidth: 0 });
}

/** docker-compose.yml with each service's `image: clipit/<name>:<tag>` tagged with its version. */
export function renderCompose(text, services) {
  let out = text;
  const problems = [];
  for (const service of services) {
    const { image, tag } = releaseOf(service);
    const line = new RegExp(`^(\\s+image:\\s*)${image.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?::[^\\s#]*)?(\\s*(?:#.*)?)$`, 'm');
    if (!line.test(out)) problems.push(`docker-compose.yml: service ${service.name} needs a line \`image: ${image}:<tag>\``);
    else out = out.replace(line, `$1${image}:${tag}$2`);
  }
  return { text: out, problems };
}

/** Every file this script owns, as it should read: path (relative to root) → content. */
export function expectedFiles(root) {
  const all = deployables(root);
  const problems = all.flatMap(versionProblems);
  const services = all.filter((d) => d.kind === 'service');
  const files = new Map();
  for (const service of services) {
    const file = `k8s/base/services/${service.name}/kustomization.yaml`;
    if (!existsSync(join(root, file))) {
      problems.push(`${file} is missing (every service has a folder under k8s/base/services/)`);
      continue;
    }
    files.set(file, renderKustomization(readFileSync(join(root, file), 'utf8'), service));
  }
  const compose = renderCompose(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), services);
  problems.push(...compose.problems);
  files.set('docker-compose.yml', compose.text);
  return { files, problems };
}

/** Writes (or with check, compares) the files; returns the ones that differed and any problem found. */
export function syncVersions(root, { check = false } = {}) {
  const { files, problems } = expectedFiles(root);
  const stale = [...files].filter(([file, text]) => readFileSync(join(root, file), 'utf8') !== text).map(([file]) => file);
  if (!check && problems.length === 0) for (const file of stale) writeFileSync(join(root, file), files.get(file));
  return { stale, problems };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const check = process.argv.includes('--check');
  const { stale, problems } = syncVersions(root, { check });
  for (const p of problems) console.error(`versions: ${p}`);
  if (problems.length > 0) process.exit(1);
  const list = deployables(root)
    .map((d) => `${d.name} ${d.version}`)
    .join(', ');
  if (check && stale.length > 0) {
    console.error(`versions: ${stale.join(', ')} out of date with the package.json versions: run \`npm run versions\``);
    process.exit(1);
  }
  console.log(
    check
      ? `versions: up to date (${list})`
      : stale.length > 0
        ? `versions: wrote ${stale.join(', ')} (${list})`
        : `versions: nothing to change (${list})`,
  );
}

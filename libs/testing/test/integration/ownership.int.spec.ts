// Every project has an owning team in .github/CODEOWNERS: one line per service, web app and library folder,
// and a service's proto/ and k8s/ folders owned by the same team, so a new project without its line fails
// here (the message names the line to add) instead of silently falling to the platform team's default.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CODEOWNERS = '.github/CODEOWNERS';
const PROJECT_DIRS = ['services', 'frontends', 'libs'] as const;
const TEAM = /^@clipit\/[a-z0-9]+(?:-[a-z0-9]+)*-team$/;

interface Rule {
  line: number;
  pattern: string;
  owners: string[];
}

interface Workspace {
  /** Project folders, e.g. services/identity, frontends/public, libs/ui. */
  projects: string[];
  /** Folders a service's team owns besides the service's own: proto/<name>, k8s/base/services/<name>. */
  serviceFolders: (service: string) => string[];
}

function parse(text: string): Rule[] {
  return text.split('\n').flatMap((raw, i) => {
    const content = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!content) return [];
    const [pattern, ...owners] = content.split(/\s+/);
    return [{ line: i + 1, pattern: pattern!, owners }];
  });
}

/** Which rule owns a path: the last one that matches (GitHub's rule). Only the forms this file uses are understood. */
function ownerOf(rules: Rule[], path: string): Rule | undefined {
  return rules
    .filter((r) => r.pattern === '*' || (r.pattern.endsWith('/') ? `/${path}`.startsWith(r.pattern) : `/${path}` === r.pattern))
    .at(-1);
}

function ownershipProblems(text: string, ws: Workspace): string[] {
  const rules = parse(text);
  const problems: string[] = [];
  const folderLine = (folder: string) => `/${folder}/`;
  const rulesFor = (folder: string) => rules.filter((r) => r.pattern === folderLine(folder));

  for (const r of rules) {
    if (r.pattern !== '*' && !/^\/[^*?[\]]+$/.test(r.pattern))
      problems.push(`line ${r.line}: use an anchored path (/dir/ or /file), not "${r.pattern}"`);
    if (r.owners.length === 0) problems.push(`line ${r.line}: ${r.pattern} names no owner (it would have none)`);
    for (const owner of r.owners)
      if (!TEAM.test(owner)) problems.push(`line ${r.line}: ${owner} is not a team handle like @clipit/identity-team`);
  }
  if (rules[0]?.pattern !== '*') problems.push('the first rule must be "* @clipit/platform-team", the owner of everything not listed');

  for (const project of ws.projects) {
    const own = rulesFor(project);
    if (own.length === 0) problems.push(`${project} has no owner: add \`${folderLine(project)} @clipit/<team>\``);
    if (own.length > 1) problems.push(`${project} has ${own.length} lines (${own.map((r) => r.line).join(', ')}): keep one`);
    if (project.startsWith('services/') && own.length === 1) {
      const service = project.slice('services/'.length);
      const team = own[0]!.owners.join(' ');
      for (const folder of ws.serviceFolders(service)) {
        const extra = rulesFor(folder);
        if (extra.length !== 1) problems.push(`${folder} needs exactly one line, owned like ${project}: \`${folderLine(folder)} ${team}\``);
        else if (extra[0]!.owners.join(' ') !== team)
          problems.push(`line ${extra[0]!.line}: ${folder} is owned by ${extra[0]!.owners.join(' ')}, ${project} by ${team}`);
      }
    }
  }
  return problems;
}

const projectsOnDisk = () =>
  PROJECT_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => existsSync(join(ROOT, dir, name, 'package.json')))
      .map((name) => `${dir}/${name}`),
  );
const onDisk: Workspace = {
  projects: projectsOnDisk(),
  serviceFolders: (service) => [`proto/${service}`, `k8s/base/services/${service}`].filter((f) => existsSync(join(ROOT, f))),
};

describe('.github/CODEOWNERS', () => {
  const text = readFileSync(join(ROOT, CODEOWNERS), 'utf8');

  it('is the only CODEOWNERS file (GitHub reads the first of .github/, the root and docs/)', () => {
    expect(['CODEOWNERS', 'docs/CODEOWNERS'].filter((f) => existsSync(join(ROOT, f)))).toEqual([]);
  });

  it('has exactly one line per service, web app and library, and gives a service its proto and k8s folders', () => {
    expect(onDisk.projects.length).toBeGreaterThan(10);
    expect(ownershipProblems(text, onDisk)).toEqual([]);
  });

  it('fails for a new project without its line, naming the line to add', () => {
    const withNewService: Workspace = {
      projects: [...onDisk.projects, 'services/clip-stats', 'libs/clip-stats-model'],
      serviceFolders: (s) => (s === 'clip-stats' ? ['proto/clip-stats', 'k8s/base/services/clip-stats'] : onDisk.serviceFolders(s)),
    };
    expect(ownershipProblems(text, withNewService)).toEqual([
      'services/clip-stats has no owner: add `/services/clip-stats/ @clipit/<team>`',
      'libs/clip-stats-model has no owner: add `/libs/clip-stats-model/ @clipit/<team>`',
    ]);
    const lines =
      '/services/clip-stats/ @clipit/clip-stats-team\n/proto/clip-stats/ @clipit/clip-stats-team\n/k8s/base/services/clip-stats/ @clipit/platform-team\n/libs/clip-stats-model/ @clipit/clip-stats-team\n';
    expect(ownershipProblems(text + lines, withNewService)).toEqual([
      expect.stringMatching(
        /k8s\/base\/services\/clip-stats is owned by @clipit\/platform-team, services\/clip-stats by @clipit\/clip-stats-team$/,
      ),
    ]);
    expect(
      ownershipProblems(
        text + lines.replace('services/clip-stats/ @clipit/platform-team', 'services/clip-stats/ @clipit/clip-stats-team'),
        withNewService,
      ),
    ).toEqual([]);
    expect(ownershipProblems(`${text}/services/identity/ @clipit/other-team\n`, onDisk)).toEqual([
      expect.stringContaining('services/identity has 2 lines'),
    ]);
  });

  it('leaves shared root files to the platform team and each service folder to its team', () => {
    const rules = parse(text);
    const owner = (path: string) => ownerOf(rules, path)?.owners.join(' ');
    expect({
      'package.json': owner('package.json'),
      'package-lock.json': owner('package-lock.json'),
      'nx.json': owner('nx.json'),
      'docker-compose.yml': owner('docker-compose.yml'),
      'deploy/Dockerfile': owner('deploy/Dockerfile'),
      'k8s/base/kustomization.yaml': owner('k8s/base/kustomization.yaml'),
      'services/identity/src/main.ts': owner('services/identity/src/main.ts'),
      'services/identity/package.json': owner('services/identity/package.json'),
      'proto/identity/v1/identity.proto': owner('proto/identity/v1/identity.proto'),
      'k8s/base/services/identity/kustomization.yaml': owner('k8s/base/services/identity/kustomization.yaml'),
      'frontends/public/package.json': owner('frontends/public/package.json'),
    }).toEqual({
      'package.json': '@clipit/platform-team',
      'package-lock.json': '@clipit/platform-team',
      'nx.json': '@clipit/platform-team',
      'docker-compose.yml': '@clipit/platform-team',
      'deploy/Dockerfile': '@clipit/platform-team',
      'k8s/base/kustomization.yaml': '@clipit/platform-team',
      'services/identity/src/main.ts': '@clipit/identity-team',
      'services/identity/package.json': '@clipit/identity-team',
      'proto/identity/v1/identity.proto': '@clipit/identity-team',
      'k8s/base/services/identity/kustomization.yaml': '@clipit/identity-team',
      'frontends/public/package.json': '@clipit/public-web-team',
    });
  });
});

import type { Tree } from '@nx/devkit';

// The places the platform lists its services, each edited as text so that comments and layout stay as
// people wrote them. Each edit finds an anchor and fails, naming the file, when the anchor is gone:
// better a clear error than a service half registered.

export function edit(tree: Tree, file: string, change: (text: string) => string): void {
  const before = tree.read(file, 'utf-8');
  if (before === null) throw new Error(`${file} is missing`);
  tree.write(file, change(before));
}

export function anchorError(file: string, what: string): Error {
  return new Error(`${file}: cannot find ${what}; add the new service there by hand or restore the anchor`);
}

/** Inserts `block` before the first line matching `anchor`. */
export function insertBeforeLine(file: string, text: string, anchor: RegExp, block: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) throw anchorError(file, String(anchor));
  lines.splice(at, 0, ...block.split('\n'));
  return lines.join('\n');
}

/** Inserts `block` after the last line matching `anchor`. */
export function insertAfterLastLine(file: string, text: string, anchor: RegExp, block: string): string {
  const lines = text.split('\n');
  const at = lines.map((l) => anchor.test(l)).lastIndexOf(true);
  if (at < 0) throw anchorError(file, String(anchor));
  lines.splice(at + 1, 0, ...block.split('\n'));
  return lines.join('\n');
}

/** Appends ` <word>` to the line matching `anchor` (a space-separated list such as CLIPIT_DATABASES). */
export function appendToLine(file: string, text: string, anchor: RegExp, word: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) throw anchorError(file, String(anchor));
  lines[at] = `${lines[at]!.trimEnd()} ${word}`;
  return lines.join('\n');
}

/** Adds `- name: <name>\n count: <n>` at the end of an overlay's `replicas:` list, with the count of its last entry. */
export function addReplicas(file: string, text: string, name: string): string {
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

/** Adds `path` to the workspace's TypeScript references, before the first service's. */
export function tsconfigReferences(tree: Tree, path: string): void {
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'tsconfig.tests.json']) {
    if (!tree.exists(file)) continue;
    // Before the first service's reference (text, not JSON: these files carry comments).
    edit(tree, file, (t) => {
      const lines = t.split('\n');
      const at = lines.findIndex((l) => /^\s*"path": "services\//.test(l));
      if (at < 1 || lines[at - 1]!.trim() !== '{') throw anchorError(file, 'a reference to services/');
      const indent = lines[at - 1]!.slice(0, lines[at - 1]!.indexOf('{'));
      lines.splice(at - 1, 0, `${indent}{`, `${indent}  "path": "${path}"`, `${indent}},`);
      return lines.join('\n');
    });
  }
}

/** Gives `team` the folders `paths` in CODEOWNERS, after the last service's block, in the file's column layout. */
export function codeowners(tree: Tree, team: string, paths: string[]): void {
  const file = ['.github/CODEOWNERS', 'CODEOWNERS'].find((f) => tree.exists(f));
  if (!file) return;
  // The last matching line wins in CODEOWNERS, and the catch-all for the platform team comes first.
  const line = (path: string) => `${path.padEnd(35)} ${team}`;
  edit(tree, file, (t) =>
    insertAfterLastLine(file, t, /^\/(services|proto|k8s\/base\/services)\/[a-z0-9-]+\/\s/, ['', ...paths.map(line)].join('\n')),
  );
}

/** Adds `row` after the last row of the root README's table of services (Prettier aligns the table afterwards). */
export function readmeServiceRow(tree: Tree, row: string): void {
  const file = 'README.md';
  if (!tree.exists(file)) return;
  edit(tree, file, (t) => insertAfterLastLine(file, t, /^\| \[[a-z-]+\]\(services\/[a-z-]+\/README\.md\) +\|/, row));
}

// No import loops between the folders of a project (ADR 0035): in every service and library, the top-level
// folders of src/ (and its top-level files, each a unit of its own) import each other in one direction only,
// so each folder can be read, tested and moved with what it stands on and nothing that stands on it. The
// graph is built from the import text of the sources (type-only imports included: a type that goes both
// ways is a loop all the same); tests (*.spec.ts, *.spec.tsx) are left out, since nothing imports them.
// A loop fails here naming its folders and the imports that close it; break it by moving the thing to
// where it belongs (usually the lower of the two folders), never by widening this check.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PROJECT_DIRS = ['services', 'libs'] as const;
const SOURCE = /\.(ts|tsx|mts|cts)$/;
const TEST = /\.spec\.(ts|tsx)$/;
/** Code the repository's generators write (they import only within themselves). */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated']);

/** One relative import of a source file: where it is and what it names. */
interface SourceImport {
  from: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [];
  });
}

/** The relative specifiers of `code`'s imports and re-exports, static, dynamic or type-only. */
function relativeSpecifiers(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers = [
    ...withoutComments.matchAll(/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...withoutComments.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...withoutComments.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** The unit of `src` a path falls in: its top-level folder, or the top-level file itself (`config.ts`). */
function unitOf(src: string, path: string): string | undefined {
  const rel = relative(src, path);
  if (rel === '' || rel.startsWith('..')) return undefined;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? `${first}/` : first!.replace(/\.js$/, '.ts').replace(/\.jsx$/, '.tsx');
}

/** The edges between units, each with the imports that make it (`from → specifier`). */
function unitGraph(src: string, imports: readonly SourceImport[]): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const { from, specifier } of imports) {
    const a = unitOf(src, from);
    const b = unitOf(src, resolve(dirname(from), specifier));
    if (!a || !b || a === b) continue;
    const edges = graph.get(a) ?? new Map<string, string[]>();
    graph.set(a, edges);
    edges.set(b, [...(edges.get(b) ?? []), `${relative(src, from)} → ${specifier}`]);
  }
  return graph;
}

/**
 * The loops of `graph`: each strongly connected set of two or more units (Tarjan), as one of its cycles
 * written out with the imports along it, so the message says what to move.
 */
function loopsOf(graph: Map<string, Map<string, string[]>>): string[] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return components
    .sort((a, b) => a[0]!.localeCompare(b[0]!))
    .map((component) => {
      const cycle = cycleThrough(graph, component);
      const steps = cycle.map((a, i) => {
        const b = cycle[(i + 1) % cycle.length]!;
        return `  ${a} → ${b}: ${graph.get(a)!.get(b)!.slice(0, 3).join(', ')}`;
      });
      return `${component.join(' ↔ ')}\n${steps.join('\n')}`;
    });
}

/** A cycle through the first unit of a strongly connected `component` (a shortest path back to it). */
function cycleThrough(graph: Map<string, Map<string, string[]>>, component: string[]): string[] {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!inside.has(w) || cameFrom.has(w)) continue;
      cameFrom.set(w, v);
      if (w === start) queue.length = 0;
      else queue.push(w);
    }
  }
  const path = [start];
  for (let v = cameFrom.get(start)!; v !== start; v = cameFrom.get(v)!) path.splice(1, 0, v);
  return path;
}

/** Every project under services/ and libs/ with a src/ folder, and the relative imports of its sources. */
function projects(): { name: string; src: string; imports: SourceImport[] }[] {
  return PROJECT_DIRS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, dir, entry.name, 'src')))
      .map((entry) => {
        const src = join(ROOT, dir, entry.name, 'src');
        const imports = sourceFiles(src).flatMap((from) =>
          relativeSpecifiers(readFileSync(from, 'utf8')).map((specifier) => ({ from, specifier })),
        );
        return { name: `${dir}/${entry.name}`, src, imports };
      }),
  );
}

describe('folder-level import loops', () => {
  const src = '/p/src';
  const at = (file: string, ...specifiers: string[]) => specifiers.map((specifier) => ({ from: `${src}/${file}`, specifier }));

  it('sees a loop between two folders, and between a folder and a top-level file, naming the imports', () => {
    const loops = loopsOf(
      unitGraph(src, [
        ...at('http/error.filter.ts', '../auth/session-cookie.js'),
        ...at('auth/auth.controller.ts', '../http/endpoint.js', '../config.js'),
        ...at('config.ts', './web/remotes-config.js'),
        ...at('web/web.service.ts', '../config.js'),
      ]),
    );
    expect(loops).toEqual([
      'auth/ ↔ http/\n  auth/ → http/: auth/auth.controller.ts → ../http/endpoint.js\n  http/ → auth/: http/error.filter.ts → ../auth/session-cookie.js',
      'config.ts ↔ web/\n  config.ts → web/: config.ts → ./web/remotes-config.js\n  web/ → config.ts: web/web.service.ts → ../config.js',
    ]);
  });

  it('sees a loop through three units, and none where imports go one way or stay inside a folder', () => {
    const three = loopsOf(unitGraph(src, [...at('a/x.ts', '../b/y.js'), ...at('b/y.ts', '../c.js'), ...at('c.ts', './a/x.js')]));
    expect(three).toEqual([expect.stringMatching(/^a\/ ↔ b\/ ↔ c\.ts\n {2}a\/ → b\/: .*\n {2}b\/ → c\.ts: .*\n {2}c\.ts → a\/: /)]);
    expect(
      loopsOf(unitGraph(src, [...at('a/x.ts', '../b/y.js', './z.js'), ...at('a/z.ts', './x.js'), ...at('b/y.ts', '../c.js')])),
    ).toEqual([]);
  });

  it('reads imports, re-exports, type-only and dynamic imports, and skips packages and comments', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "export * from '../d.js';",
      "const e = await import('./e.js');",
      "import 'reflect-metadata';",
      "import { z } from 'zod';",
      "// import { f } from './f.js';",
      "/* import { g } from './g.js'; */",
      'import {',
      '  h,',
      "} from './h.js';",
    ].join('\n');
    expect(relativeSpecifiers(code).sort()).toEqual(['../b/b.js', '../d.js', './a.js', './c.js', './e.js', './h.js']);
  });

  it('finds none in any service or library under services/ and libs/', () => {
    const all = projects();
    expect(all.map((p) => p.name)).toEqual(expect.arrayContaining(['services/gateway', 'services/submissions', 'libs/service-kit']));
    const loops = all.flatMap(({ name, src, imports }) => loopsOf(unitGraph(src, imports)).map((loop) => `${name}/src: ${loop}`));
    expect(loops).toEqual([]);
  });
});

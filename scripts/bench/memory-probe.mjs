// Loaded into every Node process of a `BENCH_MEMORY_DETAIL=1 npm run bench:memory` run (NODE_OPTIONS=--import);
// does something only in a service's process (services/<name>/dist/main.js). It counts the modules the service
// loads (ES modules and require()d ones alike, by package), and on SIGUSR2 writes what V8 and Node say about its
// memory to MEMORY_PROBE_DIR/<pid>.json; with MEMORY_PROBE_SNAPSHOT=<service> that service also writes a heap
// snapshot beside it. The bench reads them back (memory.mjs). Counting costs a little memory of its own, so the
// bench's gate is judged on runs without this probe.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const dir = process.env.MEMORY_PROBE_DIR;
const service = /services\/([^/]+)\/dist\/main\.js$/.exec(process.argv[1] ?? '')?.[1];

/** The package a module URL belongs to (`@scope/name`, `name`, or `(own code)` outside node_modules). */
function packageOf(url) {
  if (url.startsWith('node:')) return '(node built-in)';
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return '(own code)';
  const [first, second] = url.slice(at + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

function sizeOf(url) {
  try {
    return statSync(fileURLToPath(url)).size;
  } catch {
    return 0;
  }
}

if (dir && service) {
  const byPackage = new Map();
  const seen = new Set();
  registerHooks({
    load(url, context, nextLoad) {
      if (!seen.has(url)) {
        seen.add(url);
        const name = packageOf(url);
        const entry = byPackage.get(name) ?? { modules: 0, bytes: 0 };
        entry.modules += 1;
        // The source's size: V8 keeps every module's source in the heap (lazy compilation, Function.prototype.toString).
        if (url.startsWith('file:')) entry.bytes += sizeOf(url);
        byPackage.set(name, entry);
      }
      return nextLoad(url, context);
    },
  });
  process.on('SIGUSR2', () => {
    mkdirSync(dir, { recursive: true });
    const code = v8.getHeapCodeStatistics();
    const heap = v8.getHeapStatistics();
    const report = {
      service,
      pid: process.pid,
      memoryUsage: process.memoryUsage(),
      heap: {
        totalPhysical: heap.total_physical_size,
        malloced: heap.malloced_memory,
        peakMalloced: heap.peak_malloced_memory,
        nativeContexts: heap.number_of_native_contexts,
        externalMemory: heap.external_memory,
      },
      code: {
        codeAndMetadata: code.code_and_metadata_size,
        bytecodeAndMetadata: code.bytecode_and_metadata_size,
        externalScriptSource: code.external_script_source_size,
      },
      spaces: v8
        .getHeapSpaceStatistics()
        .map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size, physical: s.physical_space_size })),
      modules: seen.size,
      byPackage: [...byPackage].map(([name, e]) => [name, e.modules, e.bytes]).sort((a, b) => b[2] - a[2]),
    };
    if (process.env.MEMORY_PROBE_SNAPSHOT === service) report.snapshot = v8.writeHeapSnapshot(join(dir, `${service}.heapsnapshot`));
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(report));
  });
}

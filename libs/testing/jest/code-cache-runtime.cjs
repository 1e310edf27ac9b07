// Jest's runtime with a V8 code cache for its module sandboxes (the `runtime` of every project in
// jest.config.js; ADR 0030). Jest gives each test file a sandbox of its own and compiles every module the file
// loads again: about 0.6 CPU-s of an e2e file's start, paid by each of the suite's files. With
// CLIPIT_JEST_CODE_CACHE set to a folder (`npm test` sets one for its run), the code V8 compiles for a module
// is kept there under a digest of its source, and every later compile of the same source, in any worker,
// starts from it. V8 checks what it is given and compiles afresh when the data does not fit (another Node,
// other flags), so a kept entry can make a compile faster, never different. Without the variable this is
// Jest's own runtime, unchanged.
'use strict';

const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const vm = require('node:vm');

const folder = process.env.CLIPIT_JEST_CODE_CACHE;
const PATCHED = Symbol.for('clipit.jest-code-cache');

if (folder && !vm[PATCHED]) {
  vm[PATCHED] = true;
  mkdirSync(folder, { recursive: true });
  const entryOf = (kind, source) =>
    join(folder, kind + createHash('sha256').update(process.version).update(source).digest('hex').slice(0, 40));
  const read = (file) => {
    try {
      return readFileSync(file);
    } catch {
      return undefined;
    }
  };
  // Written under a name of its own, then renamed: a worker reading it never sees half an entry.
  const keep = (file, data) => {
    try {
      const writing = `${file}.${process.pid}`;
      writeFileSync(writing, data);
      renameSync(writing, file);
    } catch {
      // A cache that cannot be written only means compiling again.
    }
  };

  // A module whose kept data V8 refuses (vm.SourceTextModule throws where vm.Script only flags it; a worker
  // whose V8 flags differ, for one) is compiled without it; the entry stays for the processes it fits.
  const SourceTextModule = vm.SourceTextModule;
  if (SourceTextModule) {
    vm.SourceTextModule = new Proxy(SourceTextModule, {
      construct(target, [code, options = {}], newTarget) {
        const file = entryOf('m', code);
        const cachedData = read(file);
        if (cachedData) {
          try {
            return Reflect.construct(target, [code, { ...options, cachedData }], newTarget);
          } catch {
            return Reflect.construct(target, [code, options], newTarget);
          }
        }
        const module = Reflect.construct(target, [code, options], newTarget);
        keep(file, module.createCachedData());
        return module;
      },
    });
  }

  const compileFunction = vm.compileFunction;
  vm.compileFunction = function cachedCompileFunction(code, params = [], options = {}) {
    const file = entryOf('f', `${params.join(',')}\0${code}`);
    const cachedData = read(file);
    const fn = compileFunction.call(this, code, params, cachedData ? { ...options, cachedData } : { ...options, produceCachedData: true });
    if (!cachedData && fn.cachedData) keep(file, fn.cachedData);
    return fn;
  };
}

module.exports = require('jest-runtime');

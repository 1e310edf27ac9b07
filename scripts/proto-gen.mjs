// Generates TypeScript types for every gRPC contract under proto/ into libs/contracts/src/generated.
// With --check it generates into a temporary folder and fails when the committed code differs,
// so a contract change can never ship with stale generated types.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const generated = 'libs/contracts/src/generated';
const buf = join(root, 'node_modules/.bin/buf');
const check = process.argv.includes('--check');

function files(dir) {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  } catch {
    return [];
  }
}

execFileSync(buf, ['lint'], { cwd: root, stdio: 'inherit' });

// A field whose name has a digit after an underscore (created_last_7_days) is named differently by the
// two code generators in play: ts-proto's types say createdLast7Days, the gRPC loader's objects carry
// createdLast_7Days, so the value silently goes missing. Refused here, with the line.
const digitAfterUnderscore = files(join(root, 'proto'))
  .filter((f) => f.endsWith('.proto'))
  .flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .map((line, i) => ({ line: line.replace(/\/\/.*$/, ''), at: `${relative(root, f)}:${i + 1}` }))
      .filter(({ line }) => /^\s*(optional\s+|repeated\s+)?[\w.]+\s+\w*_\d\w*\s*=\s*\d+/.test(line))
      .map(({ at }) => at),
  );
if (digitAfterUnderscore.length > 0) {
  console.error(
    `proto: a field name with a digit after an underscore is read under two different names (rename it): ${digitAfterUnderscore.join(', ')}`,
  );
  process.exit(1);
}

if (!check) {
  rmSync(join(root, generated), { recursive: true, force: true });
  execFileSync(buf, ['generate'], { cwd: root, stdio: 'inherit' });
  console.log(`proto: generated ${files(join(root, generated)).length} file(s) into ${generated}`);
  process.exit(0);
}

const out = mkdtempSync(join(tmpdir(), 'clipit-proto-'));
try {
  execFileSync(buf, ['generate', '-o', out], { cwd: root, stdio: 'inherit' });
  const fresh = new Map(files(join(out, generated)).map((f) => [relative(join(out, generated), f), readFileSync(f, 'utf8')]));
  const committed = new Map(files(join(root, generated)).map((f) => [relative(join(root, generated), f), readFileSync(f, 'utf8')]));
  const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter((f) => fresh.get(f) !== committed.get(f));
  if (stale.length > 0) {
    console.error(`proto: generated code is stale (${stale.join(', ')}); run \`npm run proto\` and commit the result.`);
    process.exit(1);
  }
  console.log(`proto: ${fresh.size} generated file(s) up to date`);
} finally {
  rmSync(out, { recursive: true, force: true });
}

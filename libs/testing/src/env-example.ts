import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const EXAMPLE = fileURLToPath(new URL('../../../deploy/.env.example', import.meta.url));

/** The variables deploy/.env.example lists, with their example (default) values. */
export function envExample(): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(EXAMPLE, 'utf8').split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return vars;
}

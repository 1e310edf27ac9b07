import { expect, it } from '@jest/globals';
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

/**
 * How a service's configuration agrees with deploy/.env.example: the variables it reads that the
 * example does not list (should be none), and the configuration loaded from the example's values next
 * to the one loaded from no variables at all (should be equal: the example shows the defaults).
 */
export function configAgainstEnvExample<C>(
  shape: Readonly<Record<string, unknown>>,
  load: (source: NodeJS.ProcessEnv) => C,
): { unlisted: string[]; fromExample: C; fromDefaults: C } {
  const example = envExample();
  const names = Object.keys(shape);
  return {
    unlisted: names.filter((name) => !Object.hasOwn(example, name)),
    fromExample: load(Object.fromEntries(names.map((name) => [name, example[name]]))),
    fromDefaults: load({}),
  };
}

/**
 * The specs every service's configuration owes: each variable it reads is listed in deploy/.env.example,
 * with the default the service has. Call inside the service's `describe` of its config.
 */
export function itAgreesWithEnvExample<C>(shape: Readonly<Record<string, unknown>>, load: (source: NodeJS.ProcessEnv) => C): void {
  it('lists every variable it reads in deploy/.env.example, with the defaults it has', () => {
    const { unlisted, fromExample, fromDefaults } = configAgainstEnvExample(shape, load);
    expect(unlisted).toEqual([]);
    expect(fromExample).toEqual(fromDefaults);
  });
}

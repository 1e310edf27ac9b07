// The users table's CHECK on twitter_username is SQL and cannot import the handle rule, so it repeats
// the pattern; this spec keeps the two equal. It runs every migration against a recording query
// runner and reads the last definition of the constraint, so a later migration that changes the
// CHECK is held to the same rule.
import { describe, expect, it } from '@jest/globals';
import { HANDLE_PATTERN } from '@clipit/field-rules';
import { readdirSync } from 'node:fs';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const CONSTRAINT = 'users_twitter_username_check';

async function migrationSql(): Promise<string[]> {
  const files = readdirSync(import.meta.dirname)
    .filter((file) => /^\d+-.+\.ts$/.test(file) && !file.endsWith('.spec.ts'))
    .sort();
  const statements: string[] = [];
  const recorder = { query: async (sql: string) => void statements.push(sql) } as unknown as QueryRunner;
  for (const file of files) {
    const module = (await import(`./${file.replace(/\.ts$/, '.js')}`)) as Record<string, new () => MigrationInterface>;
    for (const Migration of Object.values(module)) await new Migration().up(recorder);
  }
  return statements;
}

/** The pattern of the last `CONSTRAINT users_twitter_username_check CHECK (twitter_username ~ '…')`. */
function checkPattern(statements: string[]): string | undefined {
  const definition = new RegExp(`CONSTRAINT\\s+${CONSTRAINT}\\s+CHECK\\s*\\(\\s*twitter_username\\s*~\\s*'((?:[^']|'')*)'\\s*\\)`, 'g');
  const found = statements.flatMap((sql) => [...sql.matchAll(definition)].map((m) => m[1]!.replaceAll("''", "'")));
  return found.at(-1);
}

describe(`identity's ${CONSTRAINT}`, () => {
  it('is the shared handle rule, character for character', async () => {
    const pattern = checkPattern(await migrationSql());
    expect(pattern).toBeDefined();
    // Postgres' ~ is case-sensitive like a RegExp without flags; the pattern's syntax means the same in both.
    expect(HANDLE_PATTERN.flags).toBe('');
    expect(pattern).toBe(HANDLE_PATTERN.source);
  });

  it('reads a constraint from SQL as the migration writes it', () => {
    const sql = `CONSTRAINT ${CONSTRAINT} CHECK (twitter_username ~ '^[a-z]{1,3}$'),`;
    expect(checkPattern([sql])).toBe('^[a-z]{1,3}$');
    expect(checkPattern(['CREATE INDEX x ON users (twitter_username)'])).toBeUndefined();
  });
});

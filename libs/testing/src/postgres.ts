import { openServiceDatabase } from '@clipit/service-kit';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { testInfra } from './infra.js';

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${testInfra().postgresUrl}/postgres` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A service's schema, as its migrations make it: the service's definition (`defineService`) is one. A test
 * database made from one is a copy of a database migrated once per run (`CREATE DATABASE … TEMPLATE …`), not
 * migrated again: the service's start-up then finds every migration applied.
 */
export interface SchemaTemplate {
  /** Names the template (the service's name). */
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  database?: { migrations: readonly (Function | string)[] | Record<string, Function | string> };
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
function migrationsOf(schema: SchemaTemplate): (Function | string)[] {
  if (!schema.database) throw new Error(`${schema.name} has no database, so no schema to copy`);
  const { migrations } = schema.database;
  return Array.isArray(migrations) ? [...migrations] : Object.values(migrations);
}

function safe(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  return name;
}

/** The template database of a schema in this run: named after the service and its migrations, so a changed list is another template. */
function templateName(schema: SchemaTemplate): string {
  const migrations = migrationsOf(schema)
    .map((m) => (typeof m === 'string' ? m : m.name))
    .join(',');
  const digest = createHash('sha256').update(migrations).digest('hex').slice(0, 8);
  return safe(`clipit_${testInfra().runId}_tpl_${schema.name.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${digest}`);
}

const templates = new Map<string, Promise<string>>();

/**
 * The run's template of a schema, made by the first test process that asks (an advisory lock keeps the
 * others waiting; each Jest worker is a process of its own) and reused by every later one. It is built
 * under a temporary name and renamed when complete, so a process that died half-way leaves no template.
 */
function ensureTemplate(schema: SchemaTemplate): Promise<string> {
  const name = templateName(schema);
  let made = templates.get(name);
  if (!made) {
    made = withAdmin(async (admin) => {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      try {
        const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (rowCount) return name;
        const building = `${name.slice(0, 54)}_building`;
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await admin.query(`CREATE DATABASE "${building}"`);
        const ds = await openServiceDatabase({
          url: `${testInfra().postgresUrl}/${building}`,
          urlVariable: 'the schema template',
          entities: [],
          migrations: migrationsOf(schema),
          migrate: true,
          poolSize: 2, // the migration lock holds one connection while the migrations run on another
        });
        await ds.destroy();
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        return name;
      } finally {
        await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    made.catch(() => templates.delete(name));
    templates.set(name, made);
  }
  return made;
}

/**
 * Creates a database for one test file and answers its URL: empty, or, given the service's schema, a copy
 * of the run's template of it (already migrated).
 */
export async function createTestDatabase(name: string, schema?: SchemaTemplate): Promise<string> {
  safe(name);
  if (!schema) {
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  } else {
    const template = await ensureTemplate(schema);
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  }
  return `${testInfra().postgresUrl}/${name}`;
}

export async function dropTestDatabase(name: string): Promise<void> {
  safe(name);
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Drops several test databases at once. PostgreSQL 15 takes a checkpoint for each DROP DATABASE and waits for
 * it (writing every dirty page of every database the run has open); drops under way together share one. One
 * after another, a platform's seven took 0.5 s alone and up to 3 s each beside other files (ADR 0030).
 */
export async function dropTestDatabases(...names: string[]): Promise<void> {
  await Promise.all(names.map((name) => dropTestDatabase(name)));
}

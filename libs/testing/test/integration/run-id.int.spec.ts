// A test run's id names every database, stream and key prefix it makes, and its global teardown removes
// everything so named. Integration files run two at a time, and one of them (the service generator's spec)
// starts a Jest of its own: that Jest must not take its parent's id, or its teardown drops the databases
// of the file running beside it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { testInfra } from '../../src/infra.js';

const JEST_DIR = fileURLToPath(new URL('../../jest/', import.meta.url));

/** What a Jest started by a test does around its files: the global setup, then the global teardown. */
function childRun(env: Record<string, string | undefined>): string {
  const script = `
    const setup = await import(${JSON.stringify(pathToFileURL(join(JEST_DIR, 'global-setup.mjs')).href)});
    const teardown = await import(${JSON.stringify(pathToFileURL(join(JEST_DIR, 'global-teardown.mjs')).href)});
    await setup.default();
    await teardown.default();
    process.stdout.write(process.env.CLIPIT_TEST_RUN_ID);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: env as NodeJS.ProcessEnv,
  });
  if (result.status !== 0) throw new Error(`the child run failed (${result.status ?? result.signal}): ${result.stderr}`);
  return result.stdout;
}

const { runId, postgresUrl } = testInfra();
const canary = `clipit_${runId}_runid_canary`;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: `${postgresUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${canary}"`);
});

afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS "${canary}" WITH (FORCE)`);
  await admin.end();
});

const exists = async (name: string) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

describe("a Jest started from a test's environment", () => {
  it('takes a run id of its own, and its teardown leaves the parent run’s databases alone', async () => {
    expect(process.env['CLIPIT_TEST_RUN_SETUP_PID']).toBeDefined();
    const childId = childRun({ ...process.env });
    expect(childId).toMatch(/^t[a-z0-9]+$/);
    expect(childId).not.toBe(runId);
    expect(await exists(canary)).toBe(true);
  });

  it('keeps a run id set by hand (no setup put it there), and cleans up what is named by it', async () => {
    const byHand = `${runId}hand`;
    const mine = `clipit_${byHand}_leftover`;
    await admin.query(`CREATE DATABASE "${mine}"`);
    const env = { ...process.env, CLIPIT_TEST_RUN_ID: byHand, CLIPIT_TEST_RUN_SETUP_PID: undefined };
    expect(childRun(env)).toBe(byHand);
    expect(await exists(mine)).toBe(false);
    expect(await exists(canary)).toBe(true);
  });
});

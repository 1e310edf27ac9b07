// Runs once per Jest invocation, before any worker starts; workers inherit the environment set here.
// Plain JavaScript: Jest loads global setup outside its module mapping.
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';
import { containers } from './containers.mjs';

export const DEFAULTS = {
  TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:5432',
  TEST_NATS_URL: 'nats://127.0.0.1:4222',
  TEST_REDIS_URL: 'redis://127.0.0.1:6379',
};

export default async function globalSetup() {
  // A run's id names everything it creates, and its teardown removes everything so named. A Jest that a
  // test starts (the service generator's spec runs the generated service's tests) inherits the id its
  // parent's setup put in the environment: it takes an id of its own, or its teardown would drop the
  // databases of the files still running beside it. An id set by hand is kept.
  const inherited = process.env.CLIPIT_TEST_RUN_SETUP_PID && process.env.CLIPIT_TEST_RUN_SETUP_PID !== String(process.pid);
  if (!process.env.CLIPIT_TEST_RUN_ID || inherited) {
    process.env.CLIPIT_TEST_RUN_ID = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    process.env.CLIPIT_TEST_RUN_SETUP_PID = String(process.pid);
  }
  await containers.startIfNeeded();
  for (const [k, v] of Object.entries(DEFAULTS)) process.env[k] ||= v;
  // The services a test starts close a pooled database connection idle for a second, not pg's 10 s: three
  // platforms side by side (npm test runs three files at once) kept up to 96 of PostgreSQL's 100
  // connections open, nearly all idle since their start-up or a burst.
  process.env.DB_POOL_IDLE_MS ||= '1000';
  await checkInfrastructure();
}

/** Fails loudly, naming the server and its URL, when Postgres, NATS with JetStream or Redis does not answer. */
async function checkInfrastructure() {
  const postgresUrl = process.env.TEST_POSTGRES_URL;
  const natsUrl = process.env.TEST_NATS_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  const problems = [];
  const client = new pg.Client({ connectionString: `${postgresUrl}/postgres`, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    problems.push(`PostgreSQL at ${postgresUrl}: ${err.message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    const nc = await connect({ servers: natsUrl, timeout: 3000 });
    try {
      await (await jetstreamManager(nc)).getAccountInfo();
    } catch (err) {
      problems.push(`NATS at ${natsUrl} answers but JetStream does not (start nats-server with -js): ${err.message}`);
    } finally {
      await nc.close();
    }
  } catch (err) {
    problems.push(`NATS at ${natsUrl}: ${err.message}`);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    problems.push(`Redis at ${redisUrl}: ${err.message}`);
  } finally {
    redis.disconnect();
  }
  if (problems.length > 0) {
    throw new Error(
      `The tests need real servers and some do not answer:\n  - ${problems.join('\n  - ')}\n` +
        'Start them (npm test does for local ones: node deploy/launcher/prerequisites.mjs test), or point TEST_POSTGRES_URL, TEST_NATS_URL and TEST_REDIS_URL at running ones.',
    );
  }
}

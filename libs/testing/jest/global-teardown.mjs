// Removes everything this run created (databases, streams, Redis keys), even what a failed test left.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';
import { containers } from './containers.mjs';

export default async function globalTeardown() {
  const runId = process.env.CLIPIT_TEST_RUN_ID;
  if (!runId) return;
  const client = new pg.Client({ connectionString: `${process.env.TEST_POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`clipit_${runId}_`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const nc = await connect({ servers: process.env.TEST_NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    const doomed = [];
    for await (const info of jsm.streams.list()) if (info.config.name.startsWith(runId.toUpperCase())) doomed.push(info.config.name);
    for (const name of doomed) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
  const redis = new Redis(process.env.TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `clipit:${runId}_*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  await containers.stop();
}

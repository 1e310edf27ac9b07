import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { testInfra } from './infra.js';

/** Fails loudly, naming the server and the URL, when Postgres, NATS with JetStream or Redis does not answer. */
export async function checkInfrastructure(): Promise<void> {
  const { postgresUrl, natsUrl, redisUrl } = testInfra();
  const problems: string[] = [];
  const pgClient = new pg.Client({ connectionString: `${postgresUrl}/postgres`, connectionTimeoutMillis: 3000 });
  try {
    await pgClient.connect();
    await pgClient.query('SELECT 1');
  } catch (err) {
    problems.push(`PostgreSQL at ${postgresUrl}: ${(err as Error).message}`);
  } finally {
    await pgClient.end().catch(() => undefined);
  }
  try {
    const nc = await connect({ servers: natsUrl, timeout: 3000 });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.getAccountInfo();
    } catch (err) {
      problems.push(`NATS at ${natsUrl} answers but JetStream does not (start nats-server with -js): ${(err as Error).message}`);
    } finally {
      await nc.close();
    }
  } catch (err) {
    problems.push(`NATS at ${natsUrl}: ${(err as Error).message}`);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    problems.push(`Redis at ${redisUrl}: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
  if (problems.length > 0) {
    throw new Error(
      `The tests need real servers and some do not answer:\n  - ${problems.join('\n  - ')}\n` +
        'Start them (bash .ci/run does on Debian), or point TEST_POSTGRES_URL, TEST_NATS_URL and TEST_REDIS_URL at running ones.',
    );
  }
}

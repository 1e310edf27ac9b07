import { connectEventBus, createLogger, openServiceDatabase } from '@clipit/service-kit';
import { loadFeedConfig } from './config.js';
import { feedEntities, feedMigrations } from './database.js';
import { replayReadModels } from './replay.js';

/**
 * `npm run feed:replay [-- --swap]`: rebuilds feed's read models from the start of the event stream
 * into a fresh schema (rm_rebuild) and, with --swap, puts them live. Reads the same variables as the
 * service. Prints what it did as one JSON line.
 */
const swap = process.argv.includes('--swap');
const config = loadFeedConfig();
const logger = createLogger('feed-replay', config.LOG_LEVEL);
const dataSource = await openServiceDatabase({
  url: config.FEED_DATABASE_URL,
  urlVariable: 'FEED_DATABASE_URL',
  entities: feedEntities,
  migrations: feedMigrations,
  poolSize: 2,
  migrate: true,
  logger,
});
const nc = await connectEventBus(
  config.NATS_URL,
  'feed-replay',
  { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX },
  { replicas: config.EVENTS_STREAM_REPLICAS },
);
try {
  const result = await replayReadModels({
    dataSource,
    nc,
    stream: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    logger,
    swap,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await nc.drain().catch(() => undefined);
  await dataSource.destroy();
}

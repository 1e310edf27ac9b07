import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LIVE_SCHEMA, rewardsAndHiringDdl } from '../repositories/read-model-schema.js';

/**
 * Clip points, applied streamer multipliers and clipper profiles (issue 33): new tables in the live
 * schema, made by the same statements a replay's fresh schema runs (IF NOT EXISTS: a schema created by
 * the first migration after this code already has them). They fill from new events; `npm run feed:replay
 * -- --swap` fills them from the stream's history too.
 */
export class AddRewardsAndHiringReadModels1767300000000 implements MigrationInterface {
  name = 'AddRewardsAndHiringReadModels1767300000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of rewardsAndHiringDdl(LIVE_SCHEMA)) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['clipper_profiles', 'streamer_multipliers', 'standings'])
      await q.query(`DROP TABLE IF EXISTS ${LIVE_SCHEMA}.${table}`);
  }
}

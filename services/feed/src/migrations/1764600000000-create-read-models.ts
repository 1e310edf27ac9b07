import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LIVE_SCHEMA, readModelDdl } from '../repositories/read-model-schema.js';

/** The live read models (schema `rm`), empty: the consumer fills them from the start of the stream. */
export class CreateReadModels1764600000000 implements MigrationInterface {
  name = 'CreateReadModels1764600000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of readModelDdl(LIVE_SCHEMA)) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA ${LIVE_SCHEMA} CASCADE`);
  }
}

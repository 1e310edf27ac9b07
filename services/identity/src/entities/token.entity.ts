import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { TextFlag } from './user.entity.js';

/** A streamer's token, the thing clips are tagged with. */
@Entity({ name: 'tokens' })
export class TokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'streamer_id', type: 'uuid' })
  streamerId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'pump_fun_link', type: 'text', nullable: true })
  pumpFunLink!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'is_active', type: 'text', default: 'true' })
  isActive!: TextFlag;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

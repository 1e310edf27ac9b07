import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's linked X account, from identity's `user.x-linked`: a post by it counts as the user's (ADR 0029). */
@Entity({ name: 'linked_x_accounts' })
export class LinkedXAccountEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'x_user_id', type: 'text' })
  xUserId!: string;

  @Column({ name: 'x_username', type: 'text' })
  xUsername!: string;

  @Column({ name: 'linked_at', type: 'timestamptz' })
  linkedAt!: Date;
}

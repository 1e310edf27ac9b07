import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Audit trail: one row per successful password reset. */
@Entity({ name: 'password_resets' })
export class PasswordResetEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  @Column({ type: 'text', nullable: true })
  ip!: string | null;
}

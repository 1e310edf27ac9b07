import { Column, Entity, PrimaryColumn } from 'typeorm';

export interface SessionData {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** A server-side session. `sid` is the SHA-256 of the id the browser holds, never the id itself. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'text' })
  sid!: string;

  @Column({ type: 'jsonb' })
  sess!: SessionData;

  @Column({ type: 'timestamptz' })
  expire!: Date;
}

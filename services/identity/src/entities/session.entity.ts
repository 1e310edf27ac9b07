import { Column, Entity, PrimaryColumn } from 'typeorm';

export interface SessionData {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  /** How the person signed in: a password (or sign-up with one), or X. Absent on sessions older than ADR 0032. */
  method?: SignInMethod;
}

export type SignInMethod = 'password' | 'x';

/** A server-side session. `sid` is the SHA-256 of the id the browser holds, never the id itself. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'text' })
  sid!: string;

  @Column({ type: 'jsonb' })
  sess!: SessionData;

  @Column({ type: 'timestamptz' })
  expire!: Date;

  /** When the session was last used, to within the session service's SEEN_INTERVAL; null until then. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;
}

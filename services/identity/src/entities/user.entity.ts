import { Column, Entity, PrimaryColumn } from 'typeorm';

export type UserRole = 'user' | 'clipper' | 'streamer' | 'admin';
export type TextFlag = 'true' | 'false';

/** A person's account, or a placeholder streamer profile waiting to be claimed (is_placeholder 'true'). */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** Stored lowercased; null for placeholders. */
  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName!: string | null;

  @Column({ name: 'first_name', type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ name: 'profile_image_url', type: 'text', nullable: true })
  profileImageUrl!: string | null;

  @Column({ name: 'banner_image_url', type: 'text', nullable: true })
  bannerImageUrl!: string | null;

  @Column({ name: 'wallet_address', type: 'text', nullable: true })
  walletAddress!: string | null;

  /** Without the leading `@`, in the case the person typed it; unique case-insensitively. */
  @Column({ name: 'twitter_username', type: 'text', nullable: true })
  twitterUsername!: string | null;

  @Column({ type: 'text', default: 'user' })
  role!: UserRole;

  @Column({ name: 'current_tier', type: 'integer', default: 1 })
  currentTier!: number;

  @Column({ name: 'next_stream_time', type: 'timestamptz', nullable: true })
  nextStreamTime!: Date | null;

  /** Mirrored from the social service's social.live-changed (ADR 0021); liveRevision is the last one applied. */
  @Column({ name: 'is_live', type: 'text', default: 'false' })
  isLive!: TextFlag;

  @Column({ name: 'live_revision', type: 'integer', default: 0 })
  liveRevision!: number;

  /** currentTier is mirrored from the rewards service's rewards.standing-changed (ADR 0025); tierRevision is the last one applied. */
  @Column({ name: 'tier_revision', type: 'integer', default: 0 })
  tierRevision!: number;

  /** Mirrored from social.stream-time-changed; streamTimeRevision is the last one applied. */
  @Column({ name: 'stream_time_revision', type: 'integer', default: 0 })
  streamTimeRevision!: number;

  /** numeric(3,2): the driver answers text such as "1.00", which is also what the contracts carry. */
  @Column({ name: 'streamer_multiplier', type: 'numeric', precision: 3, scale: 2, default: '1.00' })
  streamerMultiplier!: string;

  @Column({ name: 'is_placeholder', type: 'text', default: 'false' })
  isPlaceholder!: TextFlag;

  @Column({ name: 'claim_code', type: 'text', nullable: true })
  claimCode!: string | null;

  @Column({ name: 'claimed_by', type: 'uuid', nullable: true })
  claimedBy!: string | null;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  /** X's user id of the X account this user signs in with (ADR 0028); unique. */
  @Column({ name: 'x_user_id', type: 'text', nullable: true })
  xUserId!: string | null;

  @Column({ name: 'x_linked_at', type: 'timestamptz', nullable: true })
  xLinkedAt!: Date | null;

  /** When the address in `email` was shown to be the owner's (a verification link opened); null until then. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt!: Date | null;

  /** When an existing wallet was last replaced by another (the first wallet sets nothing): payouts to it wait 72 hours (ADR 0032). */
  @Column({ name: 'wallet_changed_at', type: 'timestamptz', nullable: true })
  walletChangedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

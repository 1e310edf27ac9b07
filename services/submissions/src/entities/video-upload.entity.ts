import { Column, Entity, PrimaryColumn } from 'typeorm';

export type UploadStatus = 'awaiting-upload' | 'processing' | 'ready' | 'rejected' | 'aborted' | 'expired';

const bigintNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/**
 * One video upload of a submission, from the upload URL to the media worker's verdict. Its id is the
 * video id the client finalizes with and the media queue's job id. Only a hash of the upload token
 * (the secret in a gateway upload URL) is kept.
 */
@Entity({ name: 'video_uploads' })
export class VideoUploadEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'submission_id', type: 'uuid' })
  submissionId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text', default: 'awaiting-upload' })
  status!: UploadStatus;

  @Column({ name: 'content_type', type: 'text', nullable: true })
  contentType!: string | null;

  @Column({ name: 'file_name', type: 'text', nullable: true })
  fileName!: string | null;

  @Column({ name: 'file_size', type: 'bigint', nullable: true, transformer: bigintNumber })
  fileSize!: number | null;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'finalized_at', type: 'timestamptz', nullable: true })
  finalizedAt!: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

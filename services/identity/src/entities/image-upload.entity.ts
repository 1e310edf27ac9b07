import type { ProfileImageKind } from '@clipit/field-rules';
import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ImageUploadStatus = 'pending' | 'used' | 'refused';

const bigintNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/**
 * One profile image upload: where the browser PUTs the bytes (`uploadKey`, never published) and where
 * the checked image is served once set (`imageKey`, under profile-images/ or banner-images/).
 */
@Entity({ name: 'image_uploads' })
export class ImageUploadEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  kind!: ProfileImageKind;

  @Column({ name: 'upload_key', type: 'text' })
  uploadKey!: string;

  @Column({ name: 'image_key', type: 'text' })
  imageKey!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  /** What the browser declared (the stored bytes decide the type the image is served with). */
  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ name: 'declared_size', type: 'bigint', transformer: bigintNumber })
  declaredSize!: number;

  @Column({ type: 'text', default: 'pending' })
  status!: ImageUploadStatus;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}

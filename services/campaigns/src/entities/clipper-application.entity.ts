import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ApplicationStatus = 'pending' | 'approved' | 'rejected';

/** A clipper job application (spec 02 §3 clipper_applications). Review fields stay empty until a review exists. */
@Entity({ name: 'clipper_applications' })
export class ClipperApplicationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'full_name', type: 'text' })
  fullName!: string;

  /** Lowercased; at most one pending application per address. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'social_media_handles', type: 'text', nullable: true })
  socialMediaHandles!: string | null;

  /** Hours per week, 1 to 168. */
  @Column({ name: 'availability_hours', type: 'integer', nullable: true })
  availabilityHours!: number | null;

  @Column({ type: 'text' })
  experience!: string;

  @Column({ name: 'why_join', type: 'text' })
  whyJoin!: string;

  @Column({ name: 'portfolio_links', type: 'text', nullable: true })
  portfolioLinks!: string | null;

  @Column({ type: 'text' })
  status!: ApplicationStatus;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ name: 'reviewed_by', type: 'text', nullable: true })
  reviewedBy!: string | null;

  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true })
  reviewedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

import type { SubmissionStatus, VideoState } from '@clipit/contracts';
import type { GuideCheck } from '@clipit/field-rules';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An earlier clip the video re-uploads (ADR 0048), as the moderator is shown it: `reupload` when another
 * clipper submitted it, `duplicate` when the same clipper did. Never a reason to refuse the clip by itself.
 */
export interface VideoMatch {
  submissionId: string;
  userId: string;
  /** 0 the same pictures … 1 nothing alike (@clipit/fingerprint's compareFingerprints). */
  videoDistance: number;
  /** Null when either clip has no audio to compare. */
  audioMatches: boolean | null;
  kind: 'reupload' | 'duplicate';
}

/** Where a submission's post stands at X: not read yet, read, or missing at the last read(s) (deleted, protected). */
export type PostStatus = 'unchecked' | 'found' | 'missing';

/** The hold of a clip's earning as rewards last published it (ADR 0050). */
export type EarningHoldState = 'held' | 'released' | 'voided';

/** Postgres bigint arrives as a string; counts here stay far below 2^53. */
const bigintNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/**
 * A post submission: every stored field of spec 02 §3. The mux_* columns hold what the spec gives Mux:
 * here the platform's own media pipeline (asset = the processed video's id, upload = the upload's id,
 * playback id = what a player asks for, status = waiting / processing / ready / errored).
 */
@Entity({ name: 'submissions' })
export class SubmissionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'token_id', type: 'uuid', nullable: true })
  tokenId!: string | null;

  @Column({ name: 'streamer_id', type: 'uuid', nullable: true })
  streamerId!: string | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', default: 'twitter' })
  platform!: string;

  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @Column({ name: 'author_handle', type: 'text' })
  authorHandle!: string;

  @Column({ name: 'wallet_address', type: 'text' })
  walletAddress!: string;

  @Column({ name: 'additional_info', type: 'text', nullable: true })
  additionalInfo!: string | null;

  /** `CLIP-` and 6 characters, set at creation: the owner puts it in the post to prove it is theirs (ADR 0029). */
  @Column({ name: 'verification_code', type: 'text' })
  verificationCode!: string;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt!: Date | null;

  @Column({ type: 'text', default: 'pending' })
  status!: SubmissionStatus;

  @Column({ name: 'added_to_feed', type: 'boolean', default: false })
  addedToFeed!: boolean;

  @Column({ name: 'rejected_reason', type: 'text', nullable: true })
  rejectedReason!: string | null;

  @Column({ name: 'approved_at', type: 'timestamptz', nullable: true })
  approvedAt!: Date | null;

  @Column({ name: 'video_state', type: 'text', default: 'none' })
  videoState!: VideoState;

  @Column({ name: 'has_video', type: 'boolean', default: false })
  hasVideo!: boolean;

  /** The upload the video state is about (the latest one). */
  @Column({ name: 'video_id', type: 'uuid', nullable: true })
  videoId!: string | null;

  @Column({ name: 'video_rejected_reason', type: 'text', nullable: true })
  videoRejectedReason!: string | null;

  @Column({ name: 'video_file_name', type: 'text', nullable: true })
  videoFileName!: string | null;

  @Column({ name: 'video_file_size', type: 'bigint', nullable: true, transformer: bigintNumber })
  videoFileSize!: number | null;

  @Column({ name: 'mux_asset_id', type: 'text', nullable: true })
  muxAssetId!: string | null;

  @Column({ name: 'mux_upload_id', type: 'text', nullable: true })
  muxUploadId!: string | null;

  @Column({ name: 'mux_status', type: 'text', nullable: true })
  muxStatus!: string | null;

  @Column({ name: 'mux_playback_id', type: 'text', nullable: true })
  muxPlaybackId!: string | null;

  @Column({ name: 'video_url', type: 'text', nullable: true })
  videoUrl!: string | null;

  @Column({ name: 'video_thumbnail_url', type: 'text', nullable: true })
  videoThumbnailUrl!: string | null;

  @Column({ name: 'video_duration', type: 'double precision', nullable: true })
  videoDuration!: number | null;

  @Column({ name: 'video_aspect_ratio', type: 'text', nullable: true })
  videoAspectRatio!: string | null;

  /** The guide's checks on the processed video (ADR 0047); null until it is processed. */
  @Column({ name: 'guide_checks', type: 'jsonb', nullable: true })
  guideChecks!: GuideCheck[] | null;

  /** How the served video was made; null until it is processed (and for videos processed before issue 35). */
  @Column({ name: 'video_processing', type: 'text', nullable: true })
  videoProcessing!: 'remux' | 'transcode' | null;

  /** Earlier clips the current video re-uploads (ADR 0048), closest first; null until its fingerprint was looked up. */
  @Column({ name: 'video_matches', type: 'jsonb', nullable: true })
  videoMatches!: VideoMatch[] | null;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  views!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  likes!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  retweets!: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  replies!: number;

  @Column({ name: 'quote_count', type: 'bigint', default: 0, transformer: bigintNumber })
  quoteCount!: number;

  @Column({ name: 'bookmark_count', type: 'bigint', default: 0, transformer: bigintNumber })
  bookmarkCount!: number;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  @Column({ name: 'last_metrics_fetch', type: 'timestamptz', nullable: true })
  lastMetricsFetch!: Date | null;

  @Column({ name: 'raw_metrics', type: 'jsonb', nullable: true })
  rawMetrics!: object | null;

  /** When the post's metrics are next read (ADR 0029); null while it is not approved or no longer scheduled. */
  @Column({ name: 'metrics_due_at', type: 'timestamptz', nullable: true })
  metricsDueAt!: Date | null;

  /** When the scheduler last queued it; cleared when X's answer is applied. */
  @Column({ name: 'metrics_queued_at', type: 'timestamptz', nullable: true })
  metricsQueuedAt!: Date | null;

  /** Reads in a row that did not find the post. */
  @Column({ name: 'metrics_missing_count', type: 'integer', default: 0 })
  metricsMissingCount!: number;

  @Column({ name: 'post_status', type: 'text', default: 'unchecked' })
  postStatus!: PostStatus;

  /** How likely the post's views are inflated, 0 to 100, as of the last read (ADR 0049); null until it was read twice. */
  @Column({ name: 'risk_score', type: 'integer', nullable: true })
  riskScore!: number | null;

  /** The reasons of the score, each a sentence with its figures, strongest first; [] when nothing fired. */
  @Column({ name: 'risk_reasons', type: 'jsonb', nullable: true })
  riskReasons!: string[] | null;

  /**
   * The hold of the clip's earning as rewards' events last told it (ADR 0050, mirrored for appeals, ADR 0051):
   * null while none was ever held; the earning's id, the hold's reasons and the time of the event applied.
   */
  @Column({ name: 'earning_hold', type: 'text', nullable: true })
  earningHold!: EarningHoldState | null;

  @Column({ name: 'earning_id', type: 'uuid', nullable: true })
  earningId!: string | null;

  @Column({ name: 'earning_hold_reasons', type: 'jsonb', nullable: true })
  earningHoldReasons!: string[] | null;

  @Column({ name: 'earning_hold_at', type: 'timestamptz', nullable: true })
  earningHoldAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

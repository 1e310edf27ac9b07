import { parseFingerprint, type ClipFingerprint } from '@clipit/fingerprint';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StoredFingerprint } from '../domain/video-matches.js';

/** The advisory lock that makes two clips fingerprinted at once see each other: one looks up, then the other. */
const MATCHING_LOCK = 0x66707269; // 'fpri'

interface FingerprintRow {
  video_id: string;
  submission_id: string;
  user_id: string;
  frames: string[];
  audio: string | null;
}

/** A ready upload whose fingerprint never arrived (the reconciler's work). */
export interface UnfingerprintedUpload {
  videoId: string;
  submissionId: string;
}

/**
 * Re-upload detection's tables (ADR 0048): each video's fingerprint, the index keys it is found by, and
 * the matches kept on the submission. The lookup reads the keys' primary key (`key = ANY`), never every
 * fingerprint.
 */
@Injectable()
export class FingerprintRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Serializes the lookups of the transaction's caller with every other one until the transaction ends. */
  async lockMatching(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MATCHING_LOCK]);
  }

  /**
   * Stores the video's fingerprint (or that it could not be made) and marks its upload fingerprinted;
   * answers false when the video already had one (a copy of the event: nothing is written twice).
   */
  async insert(
    tx: EntityManager,
    video: { videoId: string; submissionId: string; userId: string },
    fingerprint: ClipFingerprint | null,
    failedReason: string | null,
  ): Promise<boolean> {
    const inserted = (await tx.query(
      `INSERT INTO video_fingerprints (video_id, submission_id, user_id, frames, audio, failed_reason)
         VALUES ($1, $2, $3, $4::text[], $5, $6)
         ON CONFLICT (video_id) DO NOTHING
         RETURNING video_id`,
      [video.videoId, video.submissionId, video.userId, fingerprint?.frames ?? [], fingerprint?.audio ?? null, failedReason],
    )) as unknown[];
    if (inserted.length === 0) return false;
    // Written in the same transaction as the fingerprint: a video that has one is always marked.
    await tx.query(`UPDATE video_uploads SET fingerprinted_at = now() WHERE id = $1`, [video.videoId]);
    return true;
  }

  /** The video's index keys (indexKeys). */
  async insertKeys(tx: EntityManager, videoId: string, keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    await tx.query(`INSERT INTO fingerprint_keys (key, video_id) SELECT DISTINCT unnest($1::int[]), $2::uuid ON CONFLICT DO NOTHING`, [
      keys,
      videoId,
    ]);
  }

  /**
   * The other videos sharing at least `minShared` of these keys (a new clip's probeKeys), most shared first, at most `limit`, with
   * their fingerprints: the candidates to compare in full.
   */
  async candidates(
    tx: EntityManager,
    videoId: string,
    keys: readonly number[],
    minShared: number,
    limit: number,
  ): Promise<StoredFingerprint[]> {
    if (keys.length === 0) return [];
    const rows = (await tx.query(
      `WITH shared AS (
         SELECT k.video_id, count(*) AS n FROM fingerprint_keys k
          WHERE k.key = ANY($1::int[]) AND k.video_id <> $2
          GROUP BY k.video_id
         HAVING count(*) >= $3
          ORDER BY n DESC, k.video_id
          LIMIT $4
       )
       SELECT f.video_id, f.submission_id, f.user_id, f.frames, f.audio
         FROM shared JOIN video_fingerprints f ON f.video_id = shared.video_id
        ORDER BY shared.n DESC, f.video_id`,
      [keys, videoId, minShared, limit],
    )) as FingerprintRow[];
    return rows.map((r) => ({
      videoId: r.video_id,
      submissionId: r.submission_id,
      userId: r.user_id,
      fingerprint: parseFingerprint({ version: 1, frames: r.frames, audio: r.audio }),
    }));
  }

  /** Ready uploads completed before `completedBefore` and never fingerprinted, oldest first (on a partial index). */
  async findUnfingerprinted(completedBefore: Date, limit: number): Promise<UnfingerprintedUpload[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, submission_id FROM video_uploads
        WHERE status = 'ready' AND fingerprinted_at IS NULL AND completed_at < $1
        ORDER BY completed_at
        LIMIT $2`,
      [completedBefore, limit],
    )) as Array<{ id: string; submission_id: string }>;
    return rows.map((r) => ({ videoId: r.id, submissionId: r.submission_id }));
  }
}

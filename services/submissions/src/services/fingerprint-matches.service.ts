import type { MediaFingerprintedV1 } from '@clipit/contracts';
import { indexKeys, MIN_SHARED_KEYS, parseFingerprint, probeKeys } from '@clipit/fingerprint';
import { LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { findMatches } from '../domain/video-matches.js';
import { FingerprintRepository } from '../repositories/fingerprint.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { MatchesPublishedService } from './matches-published.service.js';

/** At most this many candidates from the index are compared in full (those sharing the most keys). */
export const MAX_CANDIDATES = 50;

/**
 * The media worker's fingerprints (`media.fingerprinted`, ADR 0048), applied once each through the inbox in
 * the consumer's transaction: the fingerprint and its index keys are stored, the earlier clips it
 * re-uploads are looked up by key and compared in full, and the matches are kept on the submission for the
 * moderator. A match flags a clip; it never refuses one.
 */
@Injectable()
export class FingerprintMatchesService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly fingerprints: FingerprintRepository,
    private readonly published: MatchesPublishedService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onMediaFingerprinted(data: MediaFingerprintedV1, tx: EntityManager): Promise<void> {
    const upload = await this.repo.findUpload(data.videoId, tx);
    if (!upload || upload.submissionId !== data.submissionId) {
      this.logger.warn({ videoId: data.videoId, submissionId: data.submissionId }, 'media.fingerprinted for an unknown video: ignored');
      return;
    }
    const fingerprint = data.fingerprint ? parseFingerprint(data.fingerprint) : null;
    // Two clips fingerprinted at once must see each other: the lookups take turns.
    await this.fingerprints.lockMatching(tx);
    const video = { videoId: upload.id, submissionId: upload.submissionId, userId: upload.userId };
    const stored = await this.fingerprints.insert(tx, video, fingerprint, fingerprint ? null : (data.reason ?? 'no fingerprint'));
    if (!stored) return;
    if (!fingerprint) {
      this.logger.warn({ videoId: data.videoId, reason: data.reason }, 'no fingerprint for the video: it stays unchecked');
      return;
    }
    const candidates = await this.fingerprints.candidates(tx, upload.id, probeKeys(fingerprint), MIN_SHARED_KEYS, MAX_CANDIDATES);
    await this.fingerprints.insertKeys(tx, upload.id, indexKeys(fingerprint));
    const matches = findMatches({ submissionId: upload.submissionId, userId: upload.userId, fingerprint }, candidates);
    // Kept on the submission with the snapshot and its hold (ADR 0050), in this transaction: rewards holds
    // what a flagged clip earns.
    const current = await this.published.store(tx, upload.submissionId, upload.id, matches);
    if (matches.length > 0) {
      this.logger.info(
        { videoId: upload.id, submissionId: upload.submissionId, matches: matches.map((m) => ({ ...m })), current },
        'the video matches earlier clips: flagged to the moderator',
      );
    }
  }
}

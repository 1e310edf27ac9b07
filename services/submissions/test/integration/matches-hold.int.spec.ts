import { randomBytes } from 'node:crypto';
import type { MediaFingerprintedV1, SubmissionSnapshot } from '@clipit/contracts';
import type { ClipFingerprint } from '@clipit/fingerprint';
import { deterministicEventId } from '@clipit/service-kit';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HOLD_REASONS } from '../../src/domain/hold.js';
import { startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// The owner's word that a clip is flagged (ADR 0050): storing a clip's video matches publishes
// submission.matches-changed through the outbox in the same transaction, its snapshot carrying `hold` with
// reasons that never name the other clipper; an unrelated clip's snapshot carries none.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions();
});

afterAll(async () => {
  await h?.stop();
});

const fingerprint = (frames: string[]): ClipFingerprint => ({ version: 1, frames, audio: null });

async function clipWith(fp: ClipFingerprint, userId?: string) {
  const clip = await h.finalizedUpload(undefined, undefined, userId);
  const data: MediaFingerprintedV1 = { videoId: clip.videoId, submissionId: clip.submissionId, fingerprint: fp };
  const { seq } = await h.mediaWorker.publish('media.fingerprinted', data, {
    id: deterministicEventId('media.fingerprinted', clip.videoId),
  });
  await h.consumerPast(seq);
  return clip;
}

const published = (submissionId: string) =>
  h.rows<{ data: { submission: SubmissionSnapshot; matchCount: number } }>(
    `SELECT envelope->'data' AS data FROM outbox WHERE type = 'submission.matches-changed' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
    [submissionId],
  );

describe('a flagged clip’s snapshot', () => {
  it('publishes the matches with a hold in words for the clipper, and none for a clip without matches', async () => {
    const frames = Array.from({ length: 12 }, () => randomBytes(8).toString('hex'));
    const original = await clipWith(fingerprint(frames));
    const [first] = await published(original.submissionId);
    expect(first!.data).toMatchObject({ matchCount: 0, submission: { id: original.submissionId, hold: null } });

    const copy = await clipWith(fingerprint(frames));
    const [event] = await published(copy.submissionId);
    expect(event!.data.matchCount).toBe(1);
    expect(event!.data.submission.hold).toEqual({ causes: ['reupload'], reasons: [HOLD_REASONS.reupload] });
    expect(JSON.stringify(event!.data.submission.hold)).not.toContain(original.userId);
    // The snapshot is newer than the submission's earlier events, so a consumer keeping the newest applies it.
    const stored = await h.rows<{ updated_at: Date }>('SELECT updated_at FROM submissions WHERE id = $1', [copy.submissionId]);
    expect(event!.data.submission.updatedAt).toBe(stored[0]!.updated_at.toISOString());

    const again = await clipWith(fingerprint(frames), original.userId);
    const [own] = await published(again.submissionId);
    expect(own!.data.submission.hold!.causes).toEqual(['reupload', 'duplicate']);
  });
});

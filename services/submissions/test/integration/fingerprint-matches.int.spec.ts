import { randomBytes, randomUUID } from 'node:crypto';
import { subjectFor, type EventEnvelope, type MediaFingerprintedV1 } from '@clipit/contracts';
import type { ClipFingerprint } from '@clipit/fingerprint';
import { deterministicEventId, jetstream } from '@clipit/service-kit';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// Re-upload detection as submissions applies it (ADR 0048): `media.fingerprinted` built and published as the
// media worker does, consumed by the service's durable consumer through its inbox, looked up in the real
// index, and the matches kept on the submission as the gRPC answer (and so the admin list) carries them.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions();
});

afterAll(async () => {
  await h?.stop();
});

/** Twelve frames of a clip of its own: 64 random bits each. */
const newFrames = () => Array.from({ length: 12 }, () => randomBytes(8).toString('hex'));

/** The same pictures after a re-encode: a few bits of each frame hash flipped. */
function reencoded(frames: readonly string[]): string[] {
  return frames.map((hex, i) => {
    const value = BigInt(`0x${hex}`) ^ (1n << BigInt(i % 64)) ^ (1n << BigInt((i * 7 + 3) % 64));
    return value.toString(16).padStart(16, '0');
  });
}

const fingerprint = (frames: string[]): ClipFingerprint => ({ version: 1, frames, audio: null });

async function fingerprinted(videoId: string, submissionId: string, fp: ClipFingerprint | null, reason?: string) {
  const data: MediaFingerprintedV1 = { videoId, submissionId, fingerprint: fp, ...(reason ? { reason } : {}) };
  const { seq, envelope } = await h.mediaWorker.publish('media.fingerprinted', data, {
    id: deterministicEventId('media.fingerprinted', videoId),
    correlationId: `video:${videoId}`,
  });
  await h.consumerPast(seq);
  return envelope;
}

/** A clip finalized by `userId` (a new clipper by default) whose fingerprint is then stated. */
async function clipWith(fp: ClipFingerprint | null, userId?: string) {
  const clip = await h.finalizedUpload(undefined, undefined, userId);
  await fingerprinted(clip.videoId, clip.submissionId, fp);
  return clip;
}

describe('re-upload detection', () => {
  it("flags another clipper's re-upload and the same clipper's duplicate, and leaves an unrelated clip unflagged", async () => {
    const frames = newFrames();
    const original = await clipWith(fingerprint(frames));
    expect(await h.client.getSubmission({ id: original.submissionId })).toMatchObject({ matchesChecked: true, matches: [] });

    const copy = await clipWith(fingerprint(reencoded(frames)));
    const flagged = await h.client.getSubmission({ id: copy.submissionId });
    expect(flagged.matchesChecked).toBe(true);
    expect(flagged.matches).toEqual([
      { submissionId: original.submissionId, userId: original.userId, videoDistance: expect.any(Number), kind: 'reupload' },
    ]);
    expect(flagged.matches![0]!.videoDistance).toBeLessThan(0.1);

    const again = await clipWith(fingerprint(frames), original.userId);
    const duplicate = await h.client.getSubmission({ id: again.submissionId });
    // Both earlier clips match; the same clipper's own is a duplicate, the other clipper's a re-upload.
    expect(duplicate.matches!.map((m) => [m.submissionId, m.kind]).sort()).toEqual(
      [
        [original.submissionId, 'duplicate'],
        [copy.submissionId, 'reupload'],
      ].sort(),
    );

    const unrelated = await clipWith(fingerprint(newFrames()));
    expect(await h.client.getSubmission({ id: unrelated.submissionId })).toMatchObject({ matchesChecked: true, matches: [] });
  });

  it('stores a fingerprint and its keys once, however often it is stated', async () => {
    const clip = await h.finalizedUpload();
    const envelope = await fingerprinted(clip.videoId, clip.submissionId, fingerprint(newFrames()));
    const keys = await h.count(`SELECT count(*) FROM fingerprint_keys WHERE video_id = $1`, [clip.videoId]);
    expect(keys).toBeGreaterThan(0);
    // Stated again past JetStream's duplicate window: only the inbox stands between it and a second application.
    const ack = await jetstream(h.nc).publish(
      subjectFor('media.fingerprinted', h.names.subjectPrefix),
      JSON.stringify(envelope as EventEnvelope),
      {
        msgID: `${envelope.id}:late`,
        expect: { streamName: h.names.stream },
      },
    );
    await h.consumerPast(ack.seq);
    expect(await h.count(`SELECT count(*) FROM fingerprint_keys WHERE video_id = $1`, [clip.videoId])).toBe(keys);
    expect(await h.count(`SELECT count(*) FROM video_fingerprints WHERE video_id = $1`, [clip.videoId])).toBe(1);
    expect(await h.count(`SELECT count(*) FROM inbox WHERE consumer = 'submissions' AND event_id = $1`, [envelope.id])).toBe(1);
  });

  it('keeps a clip whose fingerprint could not be made unchecked, and marks its upload done so it is not re-driven', async () => {
    const clip = await h.finalizedUpload();
    await fingerprinted(clip.videoId, clip.submissionId, null, 'the video could not be fingerprinted');
    expect(await h.client.getSubmission({ id: clip.submissionId })).toMatchObject({ matchesChecked: false, matches: [] });
    expect(
      await h.rows(`SELECT failed_reason, cardinality(frames) AS frames FROM video_fingerprints WHERE video_id = $1`, [clip.videoId]),
    ).toEqual([{ failed_reason: 'the video could not be fingerprinted', frames: 0 }]);
    expect(await h.count(`SELECT count(*) FROM video_uploads WHERE id = $1 AND fingerprinted_at IS NOT NULL`, [clip.videoId])).toBe(1);
  });

  it('ignores a fingerprint for a video it does not know, and keeps consuming', async () => {
    const unknown = randomUUID();
    await fingerprinted(unknown, randomUUID(), fingerprint(newFrames()));
    expect(await h.count(`SELECT count(*) FROM video_fingerprints WHERE video_id = $1`, [unknown])).toBe(0);
    const clip = await clipWith(fingerprint(newFrames()));
    expect(await h.client.getSubmission({ id: clip.submissionId })).toMatchObject({ matchesChecked: true });
  });
});

import { randomUUID } from 'node:crypto';
import { mediaKeys, subjectFor, type EventData, type EventEnvelope, type MediaProcessedV1 } from '@clipit/contracts';
import { VIDEO_MESSAGES } from '@clipit/field-rules';
import { deterministicEventId, jetstream, jetstreamManager } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { MEDIA_BASE_URL, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// The media worker's verdicts (media.processed, media.failed) as the submissions service applies them:
// events on the run's JetStream stream, built and published exactly as the worker builds and publishes
// them (the contracts' schemas, the kit's envelope, the id derived from the video id), consumed by the
// service's durable consumer and applied once through its inbox.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions();
});

afterAll(async () => {
  await h?.stop();
});

/** What the media worker states for a processed video (process-video.handler.ts): keys, numbers, playback id. */
function processed(videoId: string, submissionId: string, patch: Partial<MediaProcessedV1> = {}): MediaProcessedV1 {
  return {
    videoId,
    submissionId,
    durationSeconds: 12.48,
    width: 720,
    height: 1280,
    aspectRatio: '9:16',
    videoCodec: 'h264',
    audioCodec: 'aac',
    video: { key: mediaKeys.video(videoId), contentType: 'video/mp4', size: 812_345 },
    poster: { key: mediaKeys.poster(videoId), contentType: 'image/jpeg', size: 23_456 },
    playbackId: `pb_${videoId.replace(/-/g, '').slice(0, 20)}`,
    ...patch,
  };
}

/** The worker's envelope options: the id derived from (type, video id), the finalizing request's correlation id. */
const workerEnvelope = (type: 'media.processed' | 'media.failed', videoId: string) => ({
  id: deterministicEventId(type, videoId),
  correlationId: `finalize-${videoId.slice(0, 8)}`,
});

/**
 * Stores an envelope on the stream again under a message id JetStream has not seen: what happens when
 * the worker states a decided outcome again after the stream's duplicate window (a job retried late).
 * Only the consumer's inbox stands between such a copy and a second application.
 */
async function republishPastDuplicateWindow(envelope: EventEnvelope): Promise<number> {
  const ack = await jetstream(h.nc).publish(
    subjectFor(envelope.type as 'media.processed', h.names.subjectPrefix),
    JSON.stringify(envelope),
    {
      msgID: `${envelope.id}:late`,
      expect: { streamName: h.names.stream },
    },
  );
  expect(ack.duplicate).toBe(false);
  return ack.seq;
}

const readyChanges = (submissionId: string) =>
  h.rows<{ correlation: string }>(
    `SELECT envelope->>'correlationId' AS correlation FROM outbox
      WHERE type = 'submission.video-changed' AND envelope->'data'->'submission'->>'id' = $1
        AND envelope->'data'->'submission'->>'videoState' = 'ready'`,
    [submissionId],
  );

const inboxRows = (eventId: string) => h.count(`SELECT count(*) FROM inbox WHERE consumer = 'submissions' AND event_id = $1`, [eventId]);

describe("the media worker's verdicts", () => {
  it('media.processed, stated twice with the same event id, makes the video ready exactly once', async () => {
    const { submissionId, videoId } = await h.finalizedUpload();
    const opts = workerEnvelope('media.processed', videoId);
    const data = processed(videoId, submissionId);

    const first = await h.mediaWorker.publish('media.processed', data, opts);
    const second = await h.mediaWorker.publish('media.processed', data, opts);
    expect(second.envelope.id).toBe(first.envelope.id);
    // Within the duplicate window JetStream keeps one message…
    expect(second).toMatchObject({ duplicate: true, seq: first.seq });
    // …and after it, the same envelope is a new message, which the inbox must drop.
    const lateSeq = await republishPastDuplicateWindow(first.envelope);
    await h.consumerPast(lateSeq);

    const s = await h.client.getSubmission({ id: submissionId });
    expect(s).toMatchObject({
      id: submissionId,
      videoState: 'ready',
      hasVideo: true,
      isProcessing: false,
      videoUrl: `${MEDIA_BASE_URL}/${mediaKeys.video(videoId)}`,
      videoThumbnailUrl: `${MEDIA_BASE_URL}/${mediaKeys.poster(videoId)}`,
      videoDuration: 12.48,
      videoAspectRatio: '9:16',
      playbackId: data.playbackId,
    });
    expect(s.videoRejectedReason).toBeUndefined();
    const [row] = await h.rows('SELECT mux_playback_id, mux_asset_id, mux_status, video_id FROM submissions WHERE id = $1', [submissionId]);
    expect(row).toEqual({ mux_playback_id: data.playbackId, mux_asset_id: videoId, mux_status: 'ready', video_id: videoId });
    const [upload] = await h.rows('SELECT status, reason, completed_at IS NOT NULL AS completed FROM video_uploads WHERE id = $1', [
      videoId,
    ]);
    expect(upload).toEqual({ status: 'ready', reason: null, completed: true });

    // Applied once: one inbox row for the event, one ready change in the outbox (under the worker's correlation id).
    expect(await inboxRows(first.envelope.id)).toBe(1);
    expect(await readyChanges(submissionId)).toEqual([{ correlation: opts.correlationId }]);
    expect(await h.deadLetters()).toBe(0);
  });

  it('an event id already applied is never applied again, whatever the copy carries', async () => {
    // The inbox keys on the event id alone: a replay of an applied id is dropped even where the
    // submission's state would accept the verdict (here a second video that is still processing).
    const applied = await h.finalizedUpload();
    const { envelope } = await h.mediaWorker.publish(
      'media.processed',
      processed(applied.videoId, applied.submissionId),
      workerEnvelope('media.processed', applied.videoId),
    );
    const waiting = await h.finalizedUpload();
    const replay: EventEnvelope<'media.processed', EventData<'media.processed'>> = {
      ...envelope,
      data: processed(waiting.videoId, waiting.submissionId),
    };
    await h.consumerPast(await republishPastDuplicateWindow(replay));

    expect(await h.client.getSubmission({ id: applied.submissionId })).toMatchObject({ videoState: 'ready' });
    expect(await h.client.getSubmission({ id: waiting.submissionId })).toMatchObject({
      videoState: 'processing',
      isProcessing: true,
      hasVideo: false,
    });
    expect(await readyChanges(waiting.submissionId)).toEqual([]);
  });

  it('a late media.failed for a video already processed (a re-driven job, a giveUp) changes nothing: it stays shown', async () => {
    // Both verdicts carry their own deterministic id, so neither JetStream nor the inbox drops the
    // second one: only "applies to a video still processing" keeps it from undoing the first.
    const { submissionId, videoId } = await h.finalizedUpload();
    await h.mediaWorker.publish('media.processed', processed(videoId, submissionId), workerEnvelope('media.processed', videoId));
    const late = await h.mediaWorker.publish(
      'media.failed',
      { videoId, submissionId, code: 'processing-error', reason: VIDEO_MESSAGES.processingFailed },
      workerEnvelope('media.failed', videoId),
    );
    expect(late.duplicate).toBe(false);
    await h.consumerPast(late.seq);

    expect(await h.client.getSubmission({ id: submissionId })).toMatchObject({ videoState: 'ready', hasVideo: true, isProcessing: false });
    const [upload] = await h.rows('SELECT status, reason FROM video_uploads WHERE id = $1', [videoId]);
    expect(upload).toEqual({ status: 'ready', reason: null });
    expect(await readyChanges(submissionId)).toHaveLength(1);
    expect(await h.deadLetters()).toBe(0);
  });

  it('media.failed (too long) leaves the submission without video, the reason stored; a new video can follow', async () => {
    const { userId, submissionId, videoId } = await h.finalizedUpload();
    const reason = VIDEO_MESSAGES.tooLong(45);
    const { envelope, seq } = await h.mediaWorker.publish(
      'media.failed',
      { videoId, submissionId, code: 'too-long', reason },
      workerEnvelope('media.failed', videoId),
    );
    await h.consumerPast(seq);

    const s = await h.client.getSubmission({ id: submissionId });
    expect(s).toMatchObject({ videoState: 'rejected', hasVideo: false, isProcessing: false, videoRejectedReason: reason });
    expect(s.videoUrl).toBeUndefined();
    expect(s.playbackId).toBeUndefined();
    const [row] = await h.rows('SELECT video_rejected_reason, mux_status FROM submissions WHERE id = $1', [submissionId]);
    expect(row).toEqual({
      video_rejected_reason: 'Video Too Long: Video must be 40 seconds or less. Your video is 45 seconds.',
      mux_status: 'errored',
    });
    const [upload] = await h.rows('SELECT status, reason FROM video_uploads WHERE id = $1', [videoId]);
    expect(upload).toEqual({ status: 'rejected', reason });
    const changes = await h.rows(
      `SELECT envelope->'data'->>'reason' AS reason, envelope->'data'->'submission'->>'videoState' AS state FROM outbox
        WHERE type = 'submission.video-changed' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
      [submissionId],
    );
    expect(changes).toEqual([
      { reason: null, state: 'processing' },
      { reason, state: 'rejected' },
    ]);
    expect(await inboxRows(envelope.id)).toBe(1);

    // Refused is not final for the submission: the clipper may send another video.
    const again = await h.client.createVideoUpload({ userId, submissionId });
    expect(again.videoId).not.toBe(videoId);
    expect(await h.client.getSubmission({ id: submissionId })).toMatchObject({ videoState: 'awaiting-upload', hasVideo: false });
  });

  it('locks the submission before the upload, as finalize and the sweeper do, so they cannot deadlock', async () => {
    const { submissionId, videoId } = await h.finalizedUpload();
    const holder = new pg.Client({ connectionString: h.app.config.SUBMISSIONS_DATABASE_URL });
    await holder.connect();
    try {
      // Another transaction (a finalize, say) holds the submission.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM submissions WHERE id = $1 FOR UPDATE', [submissionId]);
      const published = await h.mediaWorker.publish(
        'media.processed',
        processed(videoId, submissionId),
        workerEnvelope('media.processed', videoId),
      );
      // The verdict's transaction is now waiting for a row lock…
      await waitFor(
        async () =>
          (await h.count(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) > 0 ||
          undefined,
        10_000,
        "the verdict's transaction waiting for the submission",
      );
      // …on the submission, holding nothing else: the upload is still free for the holder to take. Taken the
      // other way round (upload, then submission), this NOWAIT would fail and a real finalize would deadlock.
      await holder.query('SELECT 1 FROM video_uploads WHERE id = $1 FOR UPDATE NOWAIT', [videoId]);
      await holder.query('COMMIT');
      await h.consumerPast(published.seq);
      expect(await h.client.getSubmission({ id: submissionId })).toMatchObject({ videoState: 'ready', hasVideo: true });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });

  it('ignores a verdict for an unknown video or one that is not processing, and keeps consuming', async () => {
    // A video already refused, one already ready, and one nobody knows.
    const refused = await h.finalizedUpload();
    const failed = await h.mediaWorker.publish(
      'media.failed',
      { videoId: refused.videoId, submissionId: refused.submissionId, code: 'invalid', reason: VIDEO_MESSAGES.invalid },
      workerEnvelope('media.failed', refused.videoId),
    );
    const ready = await h.finalizedUpload();
    const done = await h.mediaWorker.publish(
      'media.processed',
      processed(ready.videoId, ready.submissionId),
      workerEnvelope('media.processed', ready.videoId),
    );
    await h.consumerPast(Math.max(failed.seq, done.seq));
    const readyBefore = await h.client.getSubmission({ id: ready.submissionId });

    // Contradicting verdicts under new event ids (so the inbox does not drop them): the state must.
    const stray = [
      await h.mediaWorker.publish('media.processed', processed(refused.videoId, refused.submissionId)),
      await h.mediaWorker.publish('media.failed', {
        videoId: ready.videoId,
        submissionId: ready.submissionId,
        code: 'invalid',
        reason: VIDEO_MESSAGES.invalid,
      }),
      await h.mediaWorker.publish(
        'media.processed',
        processed(ready.videoId, ready.submissionId, { durationSeconds: 3, aspectRatio: '16:9', playbackId: 'pb_other' }),
      ),
      await h.mediaWorker.publish('media.processed', processed(randomUUID(), randomUUID())),
      await h.mediaWorker.publish('media.failed', {
        videoId: randomUUID(),
        submissionId: randomUUID(),
        code: 'too-long',
        reason: VIDEO_MESSAGES.tooLong(50),
      }),
    ];
    // A valid verdict after them still applies.
    const later = await h.finalizedUpload();
    const laterEvent = await h.mediaWorker.publish(
      'media.processed',
      processed(later.videoId, later.submissionId),
      workerEnvelope('media.processed', later.videoId),
    );
    await waitFor(
      async () => ((await h.client.getSubmission({ id: later.submissionId })).videoState === 'ready' ? true : undefined),
      15_000,
      'the later verdict to apply',
    );
    await h.consumerPast(laterEvent.seq);

    expect(await h.client.getSubmission({ id: refused.submissionId })).toMatchObject({
      videoState: 'rejected',
      hasVideo: false,
      videoRejectedReason: VIDEO_MESSAGES.invalid,
    });
    expect(await h.client.getSubmission({ id: ready.submissionId })).toEqual(readyBefore);
    expect(await readyChanges(ready.submissionId)).toHaveLength(1);
    expect(await readyChanges(refused.submissionId)).toEqual([]);
    const statuses = await h.rows<{ id: string; status: string }>(
      'SELECT id, status FROM video_uploads WHERE id = ANY($1) ORDER BY status',
      [[refused.videoId, ready.videoId]],
    );
    expect(statuses).toEqual([
      { id: ready.videoId, status: 'ready' },
      { id: refused.videoId, status: 'rejected' },
    ]);
    // Each stray verdict was handled (its inbox row commits with the handler's transaction), not retried or dead-lettered.
    for (const { envelope } of stray)
      expect({ type: envelope.type, rows: await inboxRows(envelope.id) }).toEqual({ type: envelope.type, rows: 1 });
    expect(await h.deadLetters()).toBe(0);
    const consumer = await (await jetstreamManager(h.nc)).consumers.info(h.names.stream, 'submissions');
    expect(consumer.num_redelivered).toBe(0);
  });
});

import { status } from '@grpc/grpc-js';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rejected, SMALL_VIDEO, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// The sweeper of upload URLs that expired unused. It runs on its own timer (every second here); the
// tests only move an upload's expiry into the past in the database and watch what the timer does.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions({ UPLOAD_SWEEP_INTERVAL_SECONDS: 1 });
});

afterAll(async () => {
  await h?.stop();
});

const UPLOAD_NOT_FOUND = 'Video upload not found or expired; request a new upload URL';
/** What a client that gave up half-way left behind: the first bytes of a PUT. */
const PARTIAL_PUT = SMALL_VIDEO.subarray(0, 20);

const uploadRow = async (videoId: string) =>
  (await h.rows<{ status: string }>('SELECT status FROM video_uploads WHERE id = $1', [videoId]))[0];
const submissionRow = async (id: string) =>
  (
    await h.rows<{ video_state: string; video_id: string | null; mux_upload_id: string | null; mux_status: string | null }>(
      'SELECT video_state, video_id, mux_upload_id, mux_status FROM submissions WHERE id = $1',
      [id],
    )
  )[0];

describe('the expired-upload sweeper', () => {
  it('forgets an upload URL that expired unused and removes its partial object; leaves the others alone', async () => {
    // Expired, never finalized, a partial PUT in storage: to be swept.
    const expired = await h.withUploadUrl();
    await h.storage.put(expired.upload.storageKey, PARTIAL_PUT, 'video/mp4');
    // Not expired yet, also with a partial PUT: kept.
    const fresh = await h.withUploadUrl();
    await h.storage.put(fresh.upload.storageKey, PARTIAL_PUT, 'video/mp4');
    // Finalized (the worker is about to read its object) and past its URL's expiry: never swept.
    const processing = await h.finalizedUpload();
    // Expired and unused, but the submission has moved on to a newer upload: only the old one goes.
    const replaced = await h.withUploadUrl();
    await h.storage.put(replaced.upload.storageKey, PARTIAL_PUT, 'video/mp4');
    const newer = await h.client.createVideoUpload({ userId: replaced.userId, submissionId: replaced.submission.id });

    const past = [expired.upload.videoId, processing.videoId, replaced.upload.videoId];
    await h.db.query(`UPDATE video_uploads SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)`, [past]);

    await waitFor(
      async () =>
        (await uploadRow(expired.upload.videoId))?.status === 'expired' && (await h.storage.stat(expired.upload.storageKey)) === undefined
          ? true
          : undefined,
      10_000,
      'the expired upload to be swept',
    );

    // Forgotten: the submission is back to no video, the URL's token opens nothing, finalize says why.
    expect(await submissionRow(expired.submission.id)).toEqual({
      video_state: 'none',
      video_id: null,
      mux_upload_id: null,
      mux_status: null,
    });
    expect(await h.client.getSubmission({ id: expired.submission.id })).toMatchObject({
      videoState: 'none',
      hasVideo: false,
      isProcessing: false,
    });
    const authorize = await rejected(
      h.client.authorizeVideoUpload({ videoId: expired.upload.videoId, uploadToken: expired.upload.uploadToken }),
    );
    expect({ code: authorize.code, message: authorize.message }).toEqual({ code: status.NOT_FOUND, message: UPLOAD_NOT_FOUND });
    const finalize = await rejected(
      h.client.finalizeVideoUpload({ userId: expired.userId, submissionId: expired.submission.id, videoId: expired.upload.videoId }),
    );
    expect({ code: finalize.code, message: finalize.message }).toEqual({ code: status.NOT_FOUND, message: UPLOAD_NOT_FOUND });

    // The sweep that took it saw the others and left them as they were.
    expect(await uploadRow(fresh.upload.videoId)).toEqual({ status: 'awaiting-upload' });
    expect(await h.storage.stat(fresh.upload.storageKey)).toMatchObject({ size: PARTIAL_PUT.length });
    expect(await submissionRow(fresh.submission.id)).toMatchObject({ video_state: 'awaiting-upload', video_id: fresh.upload.videoId });
    expect(await h.client.authorizeVideoUpload({ videoId: fresh.upload.videoId, uploadToken: fresh.upload.uploadToken })).toMatchObject({
      videoId: fresh.upload.videoId,
      storageKey: fresh.upload.storageKey,
    });

    expect(await uploadRow(processing.videoId)).toEqual({ status: 'processing' });
    expect(await h.storage.stat(`uploads/${processing.videoId}`)).toMatchObject({ size: SMALL_VIDEO.length });
    expect(await submissionRow(processing.submissionId)).toMatchObject({ video_state: 'processing', video_id: processing.videoId });

    await waitFor(
      async () => ((await uploadRow(replaced.upload.videoId))?.status === 'expired' ? true : undefined),
      10_000,
      'the replaced upload to be swept',
    );
    expect(await h.storage.stat(replaced.upload.storageKey)).toBeUndefined();
    expect(await submissionRow(replaced.submission.id)).toMatchObject({ video_state: 'awaiting-upload', video_id: newer.videoId });
    expect(await uploadRow(newer.videoId)).toEqual({ status: 'awaiting-upload' });
  });

  it('a new upload URL for the swept submission works from the start', async () => {
    const { userId, submission, upload } = await h.withUploadUrl();
    await h.db.query(`UPDATE video_uploads SET expires_at = now() - interval '1 minute' WHERE id = $1`, [upload.videoId]);
    await waitFor(
      async () => ((await uploadRow(upload.videoId))?.status === 'expired' ? true : undefined),
      10_000,
      'the upload to be swept',
    );

    const again = await h.client.createVideoUpload({ userId, submissionId: submission.id });
    await h.storage.put(again.storageKey, SMALL_VIDEO, 'video/mp4');
    expect(await h.client.finalizeVideoUpload({ userId, submissionId: submission.id, videoId: again.videoId })).toMatchObject({
      videoState: 'processing',
    });
    expect(await h.queue.getJob(again.videoId)).toBeDefined();
  });
});

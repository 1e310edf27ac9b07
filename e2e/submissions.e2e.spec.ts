// The clip submission flow over real HTTP: gateway → submissions (own database, outbox, media queue on
// Redis) → identity for tags, with filesystem storage. Every rule the add-clip dialog and the form
// check is enforced here too, with the spec's words; a refused video leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { submissionsV1, protoFile } from '@clipit/contracts';
import { synthesizeClip } from '@clipit/media';
import { createGrpcClient, GrpcCallError } from '@clipit/service-kit';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const MB = 1024 * 1024;

let seq = 0;
function person(prefix = 's') {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return { handle: `${prefix}_${tag}`.slice(0, 15), email: `${prefix}${tag}@example.com` };
}
let postSeq = 0;
/** A post link no other test submits. */
function postUrl(handle = 'clipper') {
  postSeq += 1;
  return `https://x.com/${handle}/status/${Date.now()}${String(postSeq).padStart(4, '0')}`;
}

const json = (method: string, body: unknown, cookie?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

async function expectText(res: Response, status: number, text: string) {
  expect({ status: res.status, body: await res.text() }).toEqual({ status, body: text });
}

describe('clip submissions (gateway + submissions + identity, real servers)', () => {
  let p: Platform;
  let dir: string;
  let clip: Buffer;
  let alice = '';
  let bob = '';
  let submissions: ReturnType<typeof createGrpcClient<submissionsV1.SubmissionsServiceClient>>;
  // Sent as our own pages send them: with our Origin (ADR 0004).
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const rows = async (sql: string, params: unknown[] = []) =>
    (await p.submissionsDb.query(sql, params)).rows as Array<Record<string, unknown>>;

  async function signUp(role: 'clipper' | 'streamer' = 'clipper'): Promise<{ cookie: string; id: string }> {
    const who = person(role === 'streamer' ? 'st' : 'cl');
    const res = await api(
      '/api/auth/signup',
      json('POST', { email: who.email, twitterHandle: who.handle, walletAddress: WALLET, role, password: 'a-good-password' }),
    );
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    const body = (await res.json()) as { user: { id: string } };
    return { cookie: `clipit.sid=${sid}`, id: body.user.id };
  }

  async function create(cookie: string, patch: Record<string, unknown> = {}) {
    const url = postUrl();
    const res = await api(
      '/api/submissions',
      json('POST', { name: 'A clip', url, walletAddress: 'pending', additionalInfo: null, tokenId: null, ...patch }, cookie),
    );
    return { res, url };
  }

  async function createdId(cookie: string): Promise<string> {
    const { res } = await create(cookie);
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    p = await startPlatform();
    submissions = createGrpcClient<submissionsV1.SubmissionsServiceClient>({
      url: `127.0.0.1:${p.submissions.grpcPort}`,
      packageName: submissionsV1.SUBMISSIONS_V1_PACKAGE_NAME,
      serviceName: submissionsV1.SUBMISSIONS_SERVICE_NAME,
      protoFile: protoFile('submissions'),
    });
    dir = await mkdtemp(join(tmpdir(), 'clipit-e2e-clips-'));
    await synthesizeClip({ path: join(dir, 'clip.mp4'), durationSeconds: 2, width: 360, height: 640, withAudio: true, fps: 15 });
    clip = await readFile(join(dir, 'clip.mp4'));
    alice = (await signUp()).cookie;
    bob = (await signUp()).cookie;
  });

  afterAll(async () => {
    submissions?.close();
    await p?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('POST /api/submissions', () => {
    it('needs a session: 401 with the text the dialog shows', async () => {
      await expectText(await api('/api/submissions', json('POST', { name: 'x', url: postUrl() })), 401, 'Not signed in');
    });

    it("takes the dialog's payload: 201 with the id, the post derived from the link, the user's own wallet", async () => {
      const url = postUrl('SomeClipper');
      const res = await api(
        '/api/submissions',
        json(
          'POST',
          {
            name: 'My clip',
            url,
            externalId: url.split('/').pop(),
            authorHandle: 'SomeClipper',
            walletAddress: 'pending',
            additionalInfo: null,
            tokenId: null,
          },
          alice,
        ),
      );
      expect(res.status).toBe(201);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        name: 'My clip',
        url,
        platform: 'twitter',
        authorHandle: 'SomeClipper',
        externalId: url.split('/').pop(),
        walletAddress: WALLET,
        status: 'pending',
        hasVideo: 'false',
        addedToFeed: 'false',
        isProcessing: false,
      });
      expect(typeof body.id).toBe('string');
      const [row] = await rows('SELECT count(*)::int AS n FROM outbox WHERE type = $1 AND envelope->$2->$3->>$4 = $5', [
        'submission.created',
        'data',
        'submission',
        'id',
        body.id,
      ]);
      expect(row!.n).toBe(1);
    });

    it("takes the form's payload (notes, a streamer) and checks the streamer exists", async () => {
      const streamer = await signUp('streamer');
      const ok = await create(alice, { walletAddress: '', tokenId: undefined, additionalInfo: 'notes', streamerId: streamer.id });
      expect(ok.res.status).toBe(201);
      expect(await ok.res.json()).toMatchObject({ additionalInfo: 'notes', streamerId: streamer.id });
      const clipper = await signUp();
      await expectText((await create(alice, { tokenId: undefined, streamerId: clipper.id })).res, 404, 'Streamer not found');
      await expectText((await create(alice, { tokenId: '6f1c2a9e-3b7d-4c1e-9a2b-1c3d5e7f9a0b' })).res, 404, 'Streamer token not found');
    });

    it('refuses bad input with the spec messages and writes nothing', async () => {
      const before = await rows('SELECT count(*)::int AS n FROM submissions');
      await expectText(
        (await create(alice, { name: '  ' })).res,
        400,
        'Missing Information: Please fill in the clip title and Twitter URL.',
      );
      await expectText(
        await api('/api/submissions', json('POST', { name: 'x', url: 'https://x.com/someone' }, alice)),
        400,
        'Invalid Twitter URL: Please enter a valid Twitter/X post URL.',
      );
      await expectText(
        await api('/api/submissions', json('POST', { name: 'x', url: 'https://youtube.com/watch?v=1' }, alice)),
        400,
        'Invalid Twitter URL: Please enter a valid Twitter/X post URL.',
      );
      await expectText(
        (await create(alice, { additionalInfo: 'a'.repeat(151) })).res,
        400,
        'Additional info must be 150 characters or less',
      );
      await expectText((await create(alice, { surprise: 1 })).res, 400, 'Unrecognized key: "surprise"');
      await expectText((await create(alice, { name: 5 })).res, 400, 'name must be a string');
      expect(await rows('SELECT count(*)::int AS n FROM submissions')).toEqual(before);
    });

    it('takes a post once: the second time is 409', async () => {
      const url = postUrl();
      expect((await api('/api/submissions', json('POST', { name: 'first', url }, alice))).status).toBe(201);
      await expectText(
        await api('/api/submissions', json('POST', { name: 'again', url: url.replace('https://x.com', 'https://twitter.com') }, bob)),
        409,
        'This post has already been submitted',
      );
    });

    it("GET /api/submissions lists the caller's own, newest first", async () => {
      const carol = (await signUp()).cookie;
      const first = await createdId(carol);
      const second = await createdId(carol);
      const res = await api('/api/submissions', { headers: { cookie: carol } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Array<{ id: string }>).map((s) => s.id)).toEqual([second, first]);
    });
  });

  describe('video upload', () => {
    it('upload URL → PUT → finalize: the submission is processing and the job is queued', async () => {
      const id = await createdId(alice);
      const urlRes = await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, alice));
      expect(urlRes.status).toBe(200);
      const { uploadUrl, videoId } = (await urlRes.json()) as { uploadUrl: string; videoId: string };
      expect(uploadUrl).toMatch(new RegExp(`^/api/submissions/uploads/${videoId}\\?token=`));
      // The upload URL's token authenticates the PUT, not the cookie: a client without Origin (a script,
      // an app) may use it, even when a cookie comes along.
      const put = await fetch(`${p.url}${uploadUrl}`, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', cookie: alice },
        body: clip,
      });
      expect(put.status).toBe(200);
      const fin = await api('/api/submissions/finalize-video-upload', json('POST', { submissionId: id, videoId }, alice));
      expect(fin.status).toBe(200);
      expect(await fin.json()).toMatchObject({
        id,
        isProcessing: true,
        videoState: 'processing',
        hasVideo: 'false',
        videoFileSize: clip.length,
      });
      expect(await p.storedFiles('uploads')).toContain(videoId);
      await expectText(
        await api('/api/submissions/finalize-video-upload', json('POST', { submissionId: id, videoId }, alice)),
        409,
        'This video upload was already finalized',
      );
    });

    it('multipart in one request: processing at once', async () => {
      const id = await createdId(alice);
      const form = new FormData();
      form.append('video', new Blob([clip], { type: 'video/mp4' }), 'clip.mp4');
      form.append('submissionId', id);
      const res = await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: alice }, body: form });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, isProcessing: true, videoFileName: 'clip.mp4' });
    });

    it("refuses a video on someone else's submission, and a bad token", async () => {
      const id = await createdId(alice);
      await expectText(
        await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, bob)),
        403,
        'You can only add a video to your own submission',
      );
      const form = new FormData();
      form.append('video', new Blob([clip], { type: 'video/mp4' }), 'clip.mp4');
      form.append('submissionId', id);
      await expectText(
        await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: bob }, body: form }),
        403,
        'You can only add a video to your own submission',
      );
      const { videoId } = (await (await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, alice))).json()) as {
        videoId: string;
      };
      await expectText(
        await api(`/api/submissions/uploads/${videoId}?token=wrong`, {
          method: 'PUT',
          headers: { 'content-type': 'video/mp4' },
          body: clip,
        }),
        404,
        'Video upload not found or expired; request a new upload URL',
      );
      await expectText(
        await api('/api/submissions/finalize-video-upload', json('POST', { submissionId: id, videoId }, bob)),
        403,
        'You can only add a video to your own submission',
      );
    });

    it('refuses a file that is not a video type, before storing it', async () => {
      const id = await createdId(alice);
      const form = new FormData();
      form.append('video', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
      form.append('submissionId', id);
      await expectText(
        await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: alice }, body: form }),
        400,
        'Invalid File Type: Please upload a video file (MP4, WebM, MOV, or AVI).',
      );
      const { uploadUrl } = (await (await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, alice))).json()) as {
        uploadUrl: string;
      };
      await expectText(
        await api(uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' }),
        415,
        'Unsupported content type: send JSON (application/json), or multipart/form-data where a file is uploaded',
      );
    });

    it('cuts a 151 MB stream off with 413, keeps nothing and records why', async () => {
      const id = await createdId(bob);
      const { uploadUrl, videoId } = (await (
        await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, bob))
      ).json()) as { uploadUrl: string; videoId: string };
      const chunk = Buffer.alloc(MB, 7);
      let sent = 0;
      const body = Readable.from(
        (function* () {
          while (sent < 151 * MB) {
            sent += chunk.length;
            yield chunk;
          }
        })(),
      );
      // Chunked (no Content-Length): the limit is enforced on the bytes as they arrive.
      const res = await api(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: Readable.toWeb(body) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      await expectText(res, 413, 'File Too Large: Please upload a video smaller than 150MB.');
      expect(await p.storedFiles('uploads')).not.toContain(videoId);
      const [row] = await rows('SELECT video_state, video_rejected_reason, has_video FROM submissions WHERE id = $1', [id]);
      expect(row).toEqual({
        video_state: 'rejected',
        video_rejected_reason: 'File Too Large: Please upload a video smaller than 150MB.',
        has_video: false,
      });
    });

    it('allows 3 video submissions per user per day, then 429', async () => {
      const dave = (await signUp()).cookie;
      for (let i = 0; i < 3; i += 1) {
        const id = await createdId(dave);
        const form = new FormData();
        form.append('video', new Blob([clip], { type: 'video/mp4' }), 'clip.mp4');
        form.append('submissionId', id);
        expect((await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: dave }, body: form })).status).toBe(200);
      }
      const id = await createdId(dave);
      await expectText(
        await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, dave)),
        429,
        'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.',
      );
    });
  });

  describe('moderation over gRPC (spec 02 §4)', () => {
    it('approve → into the feed → out of it, each change an event; reject is terminal', async () => {
      const id = await createdId(alice);
      expect(await submissions.approve({ submissionId: id })).toMatchObject({ status: 'approved', addedToFeed: false });
      expect(await submissions.addToFeed({ submissionId: id })).toMatchObject({ status: 'approved', addedToFeed: true });
      expect(await submissions.removeFromFeed({ submissionId: id })).toMatchObject({ status: 'approved', addedToFeed: false });
      await expect(submissions.reject({ submissionId: id, reason: 'late' })).rejects.toThrow(
        'Only a pending submission can be rejected (this one is approved)',
      );

      const other = await createdId(alice);
      expect(await submissions.reject({ submissionId: other, reason: ' off-brand ' })).toMatchObject({
        status: 'rejected',
        rejectedReason: 'off-brand',
      });
      const err = await submissions.addToFeed({ submissionId: other }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GrpcCallError);
      expect((err as GrpcCallError).message).toBe('Only an approved submission can be in the feed (this one is rejected)');

      const third = await createdId(alice);
      expect(await submissions.approveAndAddToFeed({ submissionId: third })).toMatchObject({ status: 'approved', addedToFeed: true });
      await expect(submissions.approve({ submissionId: '6f1c2a9e-3b7d-4c1e-9a2b-1c3d5e7f9a0b' })).rejects.toThrow('Submission not found');

      const types = await rows(`SELECT type FROM outbox WHERE envelope->'data'->'submission'->>'id' = ANY($1) ORDER BY created_at, type`, [
        [id, other, third],
      ]);
      expect(types.map((r) => r.type).sort()).toEqual(
        [
          'submission.created',
          'submission.approved',
          'submission.feed-changed',
          'submission.feed-changed',
          'submission.created',
          'submission.rejected',
          'submission.created',
          'submission.approved',
        ].sort(),
      );
    });
  });
});

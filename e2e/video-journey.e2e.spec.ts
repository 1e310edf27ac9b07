// The whole clip journey through the gateway, on each storage driver: a clipper submits a post, sends the
// video (upload URL → PUT → finalize, or multipart in one request), the media worker probes and transcodes
// it (real ffmpeg), and the submission ends with a playable H.264/AAC MP4 and a poster that the gateway
// serves with Range support. A clip longer than 40 s and a text file renamed .mp4 end refused, with the
// reason readable on the submission and no object left behind. S3 is @20minutes/s3rver in this process,
// which checks request signatures; presigned URLs are signed for a public name of it (S3_PUBLIC_ENDPOINT).
import S3rver from '@20minutes/s3rver';
import AWSAccount from '@20minutes/s3rver/lib/models/account.js';
import { mediaKeys } from '@clipit/contracts';
import { VIDEO_MESSAGES } from '@clipit/field-rules';
import { MediaTools, runTool, synthesizeClip } from '@clipit/media';
import { openStorage, type StorageDriver } from '@clipit/storage';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUp, type Account } from './support/accounts.js';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { openSse, type SseEvent } from './support/sse.js';

/** The fields of a submission (GET /api/submissions) this journey reads. */
interface SubmissionJson {
  id: string;
  hasVideo: 'true' | 'false';
  isProcessing: boolean;
  videoState: string;
  videoRejectedReason: string | null;
  videoUrl: string | null;
  videoThumbnailUrl: string | null;
  videoDuration: number | null;
  videoAspectRatio: string | null;
  muxPlaybackId: string | null;
}

const ACCESS_KEY = 'clipit-e2e';
const SECRET_KEY = randomBytes(20).toString('hex');
const JOURNEY_TIMEOUT_MS = 120_000;

let clipsDir: string;
/** The clips every driver's journey sends, made once. */
const clips = { tenSeconds: '', mirrored: '', short: '', tooLong: '', text: '' };
const tools = new MediaTools({ ffmpegPath: process.env['FFMPEG_PATH'] ?? 'ffmpeg', ffprobePath: process.env['FFPROBE_PATH'] ?? 'ffprobe' });

beforeAll(async () => {
  clipsDir = await mkdtemp(join(tmpdir(), 'clipit-e2e-journey-'));
  Object.assign(clips, {
    tenSeconds: join(clipsDir, 'ten-seconds.mp4'),
    mirrored: join(clipsDir, 'mirrored.mp4'),
    short: join(clipsDir, 'short.mov'),
    tooLong: join(clipsDir, 'too-long.mp4'),
    text: join(clipsDir, 'notes.mp4'),
  });
  // The reference clip: 10 s, 720x1280 (portrait), with sound. Few frames keep the transcode quick.
  await synthesizeClip({ path: clips.tenSeconds, durationSeconds: 10, width: 720, height: 1280, withAudio: true, fps: 10 });
  // Another clipper's re-upload of it: mirrored, trimmed by a second, scaled down and encoded again.
  await runTool(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-ss', '1', '-i', `file:${clips.tenSeconds}`],
      ...['-vf', 'hflip,scale=540:960', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-c:a', 'aac', `file:${clips.mirrored}`],
    ],
    { timeoutMs: 60_000 },
  );
  // 4:4:4, which no phone plays as it is: transcoded.
  await synthesizeClip({
    path: clips.short,
    durationSeconds: 3,
    width: 1280,
    height: 720,
    withAudio: false,
    fps: 10,
    container: 'mov',
    video: { profile: 'high444', pixelFormat: 'yuv444p' },
  });
  await synthesizeClip({ path: clips.tooLong, durationSeconds: 45, width: 160, height: 284, withAudio: false, fps: 2 });
  await writeFile(clips.text, 'These are my notes about the clip, not a video.\n'.repeat(200));
}, 120_000);

afterAll(async () => {
  if (clipsDir) await rm(clipsDir, { recursive: true, force: true });
});

interface Driver {
  name: 'fs' | 's3';
  /** Variables every service of the platform gets; undefined for the default (fs in the run's own folder). */
  setUp(): Promise<Record<string, string>>;
  tearDown(): Promise<void>;
}

function s3Driver(): Driver {
  let dir = '';
  let server: S3rver | undefined;
  return {
    name: 's3',
    async setUp() {
      dir = await mkdtemp(join(tmpdir(), 'clipit-e2e-journey-s3-'));
      AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
      AWSAccount.DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY, SECRET_KEY);
      server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
      const { port } = await server.run();
      return {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        // What a browser would be told: the same server under another name.
        S3_PUBLIC_ENDPOINT: `http://localhost:${port}`,
        S3_BUCKET: `clipit-e2e-${randomBytes(3).toString('hex')}`,
        S3_ACCESS_KEY: ACCESS_KEY,
        S3_SECRET_KEY: SECRET_KEY,
        S3_REGION: 'us-east-1',
      };
    },
    async tearDown() {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const fsDriver: Driver = { name: 'fs', setUp: async () => ({}), tearDown: async () => undefined };

describe.each([fsDriver, s3Driver()])('the clip journey on the $name storage driver', (driver) => {
  let p: Platform;
  let shared: Record<string, string>;
  /** The platform's object store, to look behind the gateway. */
  let store: StorageDriver;
  // Sent as our own pages send them: with our Origin (ADR 0004); an absolute (presigned) URL as given.
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const json = (method: string, body: unknown, cookie: string): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    shared = await driver.setUp();
    p = await startPlatform({}, shared, { mediaWorker: true });
    store = await openStorage({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: p.storageRoot, ...shared } as Parameters<typeof openStorage>[0]);
  }, 60_000);

  afterAll(async () => {
    await p?.stop();
    await driver.tearDown();
  });

  const clipperAccount = (): Promise<Account> => signUp(p.url, { prefix: `j${driver.name}` });
  const clipper = async (): Promise<string> => (await clipperAccount()).cookie;

  async function submit(cookie: string): Promise<string> {
    const url = `https://x.com/clipper/status/${Date.now()}${randomBytes(2).readUInt16BE()}`;
    const res = await api(
      '/api/submissions',
      json('POST', { name: 'Journey clip', url, walletAddress: 'pending', additionalInfo: null, tokenId: null }, cookie),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  /** Upload URL → PUT the raw bytes → finalize (with `correlationId` as the request's id, when given); answers the video id. */
  async function sendByUploadUrl(cookie: string, id: string, file: string, contentType: string, correlationId?: string): Promise<string> {
    const urlRes = await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, cookie));
    expect(urlRes.status).toBe(200);
    const { uploadUrl, videoId } = (await urlRes.json()) as { uploadUrl: string; videoId: string };
    if (driver.name === 's3') {
      // Straight to the store, signed for the name browsers use.
      expect(uploadUrl.startsWith(`${shared['S3_PUBLIC_ENDPOINT']}/${shared['S3_BUCKET']}/`)).toBe(true);
    } else {
      expect(uploadUrl.startsWith('/api/submissions/uploads/')).toBe(true);
    }
    const put = await api(uploadUrl, { method: 'PUT', headers: { 'content-type': contentType }, body: await readFile(file) });
    expect(put.status).toBe(200);
    // Stored but unchecked: the raw upload is the pipeline's, never served on the public origin.
    const raw = await api(`/media/${mediaKeys.upload(videoId)}`);
    expect({ status: raw.status, body: await raw.text() }).toEqual({ status: 404, body: 'Not found' });
    const finalize = json('POST', { submissionId: id, videoId }, cookie);
    if (correlationId) finalize.headers = { ...(finalize.headers as Record<string, string>), 'x-correlation-id': correlationId };
    const fin = await api('/api/submissions/finalize-video-upload', finalize);
    expect(fin.status).toBe(200);
    expect(await fin.json()).toMatchObject({ id, isProcessing: true, videoState: 'processing' });
    return videoId;
  }

  /** multipart `video` + `submissionId` in one request. */
  async function sendMultipart(cookie: string, id: string, file: string, name: string, contentType: string): Promise<void> {
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(await readFile(file))], { type: contentType }), name);
    form.append('submissionId', id);
    const res = await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie }, body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, isProcessing: true, videoFileName: name });
  }

  /** The submission as its owner lists it, once the worker's verdict has landed. */
  async function settled(cookie: string, id: string): Promise<SubmissionJson> {
    return waitFor(
      async () => {
        const list = (await (await api('/api/submissions', { headers: { cookie } })).json()) as SubmissionJson[];
        const found = list.find((s) => s.id === id);
        return found && !found.isProcessing ? found : undefined;
      },
      90_000,
      `the media worker's verdict on submission ${id}`,
    );
  }

  /**
   * Waits until none of `keys` is stored. The worker states its verdict first and deletes the upload after
   * (a verdict it failed to state is retried from that upload), so a refused clip's upload may still be
   * there for a moment when the verdict is read; it must go, and nothing else may be written for it.
   */
  async function expectNothingKept(keys: string[]): Promise<void> {
    const kept = async () => (await Promise.all(keys.map(async (key) => ({ key, stat: await store.stat(key) })))).filter((s) => s.stat);
    await waitFor(async () => ((await kept()).length === 0 ? true : undefined), 10_000, `${keys.join(', ')} removed`).catch(
      () => undefined,
    );
    expect(await kept()).toEqual([]);
  }

  /** The served MP4 and poster: whole, by range, with types and caching; the MP4 probed by ffprobe. */
  async function expectPlayable(s: SubmissionJson, durationSeconds: number, aspectRatio: string) {
    expect(s).toMatchObject({
      hasVideo: 'true',
      isProcessing: false,
      videoState: 'ready',
      videoRejectedReason: null,
      videoAspectRatio: aspectRatio,
    });
    expect(s.videoDuration).toBeCloseTo(durationSeconds, 0);
    expect(s.muxPlaybackId).toEqual(expect.any(String));
    expect(s.videoUrl).toMatch(/^\/media\/videos\/[\w-]+\/video\.mp4$/);
    expect(s.videoThumbnailUrl).toMatch(/^\/media\/videos\/[\w-]+\/poster\.jpg$/);

    const whole = await api(s.videoUrl!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const mp4 = Buffer.from(await whole.arrayBuffer());
    // Faststart: the index (moov) comes before the media data, so playback starts before the download ends.
    expect(mp4.indexOf('moov')).toBeGreaterThan(0);
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));

    const head = await api(s.videoUrl!, { headers: { range: 'bytes=0-1023' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-1023/${mp4.length}`);
    expect(Buffer.from(await head.arrayBuffer())).toEqual(mp4.subarray(0, 1024));
    const tail = await api(s.videoUrl!, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(mp4.subarray(mp4.length - 100));

    const served = join(clipsDir, `${s.id}.mp4`);
    await writeFile(served, mp4);
    const probed = await tools.probe(served);
    expect(probed).toMatchObject({ videoCodec: 'h264', aspectRatio });
    expect(Math.max(probed.width, probed.height)).toBeLessThanOrEqual(1920);
    expect(probed.bitRate!).toBeLessThan(8_000_000);
    expect(probed.durationSeconds).toBeCloseTo(durationSeconds, 0);

    const poster = await api(s.videoThumbnailUrl!);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect([...Buffer.from(await poster.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const posterRange = await api(s.videoThumbnailUrl!, { headers: { range: 'bytes=0-1' } });
    expect(posterRange.status).toBe(206);
    expect([...Buffer.from(await posterRange.arrayBuffer())]).toEqual([0xff, 0xd8]);
    return probed;
  }

  it("has every service of the journey ready: identity, submissions (Postgres, NATS, the queue's Redis), the media worker, the gateway", async () => {
    const ready = {
      identity: `http://127.0.0.1:${p.identity.httpPort}/health/ready`,
      submissions: `http://127.0.0.1:${p.submissions.httpPort}/health/ready`,
      'media-worker': `http://127.0.0.1:${p.mediaWorker!.httpPort}/health/ready`,
      gateway: `${p.url}/health/ready`,
    };
    for (const [service, url] of Object.entries(ready)) {
      // A check answers within 2 s or counts as down: on a starved machine one answer can be a 503, so the last
      // of those asked for within 15 s is what is held to 200.
      let last = { status: 0, body: '' };
      const answer = await waitFor(
        async () => {
          const res = await fetch(url);
          last = { status: res.status, body: await res.text() };
          return last.status === 200 ? last : undefined;
        },
        15_000,
        `${service} ready`,
      ).catch(() => last);
      expect({ service, ...answer }).toEqual({
        service,
        status: 200,
        body: expect.stringContaining('"ok"'),
      });
    }
  });

  it(
    'upload URL → PUT → finalize: a 10 s 720x1280 clip ends processed, playable and served by range',
    async () => {
      const cookie = await clipper();
      // The owner's page holds GET /api/submissions/stream open: each change of the submission is told there
      // once committed, the page reads the list then. Nobody else hears of it; nobody signed out opens one.
      const unsigned = await api('/api/submissions/stream');
      expect({ status: unsigned.status, type: unsigned.headers.get('content-type'), body: await unsigned.text() }).toEqual({
        status: 401,
        type: 'text/plain; charset=utf-8',
        body: 'Not signed in',
      });
      const stream = await openSse(`${p.url}/api/submissions/stream`, { cookie });
      const stranger = await openSse(`${p.url}/api/submissions/stream`, { cookie: await clipper() });
      const id = await submit(cookie);
      const requestId = `journey-${randomBytes(6).toString('hex')}`;
      /** A frame about this submission with this change (and video state, when given). */
      const about = (change: string, videoState?: string) => (e: SseEvent) => {
        const frame = e.event === 'submission' ? (JSON.parse(e.data) as { id: string; change: string; videoState: string }) : undefined;
        return frame?.id === id && frame.change === change && (videoState === undefined || frame.videoState === videoState);
      };
      let s: SubmissionJson;
      let videoId: string;
      try {
        expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
        expect(JSON.parse((await stream.next(about('submission.created'), 10_000)).data)).toMatchObject({ status: 'pending' });
        videoId = await sendByUploadUrl(cookie, id, clips.tenSeconds, 'video/mp4', requestId);
        await stream.next(about('submission.video-changed', 'processing'), 10_000);
        await stream.next(about('submission.video-changed', 'ready'), 90_000);
        // Told once committed: the list read right after the frame shows the video ready.
        const listed = ((await (await api('/api/submissions', { headers: { cookie } })).json()) as SubmissionJson[]).find(
          (x) => x.id === id,
        );
        expect(listed).toMatchObject({ videoState: 'ready', isProcessing: false });
        expect(stranger.events.filter((e) => e.data.includes(id))).toEqual([]);
        s = await settled(cookie, id);
      } finally {
        stream.close();
        stranger.close();
      }
      // One trace from the finalize request through the queue, the worker's event and back: both video
      // changes (processing, then ready) carry the request's id.
      const { rows: changes } = await p.submissionsDb.query<{ state: string; correlation: string }>(
        `SELECT envelope->'data'->'submission'->>'videoState' AS state, envelope->>'correlationId' AS correlation
           FROM outbox WHERE type = 'submission.video-changed' AND envelope->'data'->'submission'->>'id' = $1 ORDER BY seq`,
        [id],
      );
      expect(changes).toEqual([
        { state: 'processing', correlation: requestId },
        { state: 'ready', correlation: requestId },
      ]);
      const probed = await expectPlayable(s, 10, '9:16');
      // H.264 in yuv420p with AAC: it plays as it is, so its own streams are served (a remux).
      expect(probed).toMatchObject({ width: 720, height: 1280, audioCodec: 'aac', pixelFormat: 'yuv420p' });
      // The upload itself is gone: only the results stay.
      expect(await store.stat(mediaKeys.upload(videoId))).toBeUndefined();
      expect(await store.stat(mediaKeys.video(videoId))).toMatchObject({ contentType: 'video/mp4' });
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "flags another clipper's mirrored, trimmed and re-encoded copy to the moderator with the clip it re-uploads",
    async () => {
      const first = await clipperAccount();
      const second = await clipperAccount();
      const original = await submit(first.cookie);
      await sendByUploadUrl(first.cookie, original, clips.tenSeconds, 'video/mp4');
      await settled(first.cookie, original);
      const copy = await submit(second.cookie);
      await sendByUploadUrl(second.cookie, copy, clips.mirrored, 'video/mp4');
      expect(await settled(second.cookie, copy)).toMatchObject({ videoState: 'ready' });
      // The clipper never sees the check; the moderator's list carries it once the worker fingerprinted the clip.
      expect(Object.keys(await settled(second.cookie, copy))).not.toContain('matches');
      const verified = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }, ''));
      const { token } = (await verified.json()) as { token: string };
      type Listed = {
        id: string;
        matches: Array<{ submissionId: string; clipper: { handle: string | null }; kind: string; videoDistance: number }> | null;
      };
      const listed = await waitFor(
        async () => {
          const page = (await (
            await api('/api/admin/submissions?limit=100', { headers: { authorization: `Bearer ${token}` } })
          ).json()) as {
            submissions: Listed[];
          };
          const found = page.submissions.find((x) => x.id === copy);
          return found?.matches ? found : undefined;
        },
        60_000,
        `the fingerprint of submission ${copy}`,
      );
      expect(listed.matches).toContainEqual(
        expect.objectContaining({ submissionId: original, clipper: expect.objectContaining({ handle: first.handle }), kind: 'reupload' }),
      );
      expect(listed.matches!.find((m) => m.submissionId === original)!.videoDistance).toBeLessThan(0.2);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'multipart in one request: a 3 s landscape 4:4:4 .mov ends transcoded and playable',
    async () => {
      const cookie = await clipper();
      const id = await submit(cookie);
      await sendMultipart(cookie, id, clips.short, 'short.mov', 'video/quicktime');
      const s = await settled(cookie, id);
      // Transcoded: long side brought down to 1080 px, height kept even, 4:2:0.
      expect(await expectPlayable(s, 3, '16:9')).toMatchObject({ width: 1080, height: 606, pixelFormat: 'yuv420p', audioCodec: null });
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'a 45 s clip is measured by ffprobe and refused: no video, the reason stored and readable, nothing kept',
    async () => {
      const cookie = await clipper();
      const id = await submit(cookie);
      const videoId = await sendByUploadUrl(cookie, id, clips.tooLong, 'video/mp4');
      const s = await settled(cookie, id);
      expect(s).toMatchObject({ hasVideo: 'false', videoState: 'rejected', videoUrl: null, videoThumbnailUrl: null, muxPlaybackId: null });
      expect(s.videoRejectedReason).toBe(VIDEO_MESSAGES.tooLong(45));
      await expectNothingKept([mediaKeys.upload(videoId), mediaKeys.video(videoId), mediaKeys.poster(videoId)]);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "a text file renamed .mp4 is not a readable video: 'Invalid Video', nothing kept",
    async () => {
      const cookie = await clipper();
      const id = await submit(cookie);
      await sendMultipart(cookie, id, clips.text, 'notes.mp4', 'video/mp4');
      const s = await settled(cookie, id);
      expect(s).toMatchObject({ hasVideo: 'false', videoState: 'rejected', videoRejectedReason: VIDEO_MESSAGES.invalid, videoUrl: null });
      const { rows } = await p.submissionsDb.query<{ id: string }>('SELECT id FROM video_uploads WHERE submission_id = $1', [id]);
      expect(rows).toHaveLength(1);
      await expectNothingKept([mediaKeys.upload(rows[0]!.id)]);
    },
    JOURNEY_TIMEOUT_MS,
  );
});

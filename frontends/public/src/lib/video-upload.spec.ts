import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fakeGateway, type Call, type Reply } from '@clipit/web-testing';
import { isFinalVideoState, progressText, putVideoFile, submitClipWithVideo, uploadPercent, type UploadProgress } from './video-upload.js';
import { FakeXhr } from '../testing/fake-xhr.js';

const MB = 1024 * 1024;
const video = (bytes = 4 * MB) => new File([new Uint8Array(bytes)], 'clip.mp4', { type: 'video/mp4' });
const PAYLOAD = {
  name: 'Big play',
  url: 'https://x.com/clip_king/status/1790000000000000001',
  externalId: '1790000000000000001',
  authorHandle: 'clip_king',
  walletAddress: '',
  additionalInfo: null,
  streamerId: null,
};

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => {
  FakeXhr.instances = [];
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

describe('upload progress', () => {
  it('is whole percent, 100 only when every byte is sent, with the sizes in MB', () => {
    expect(uploadPercent({ loaded: 0, total: 4 * MB })).toBe(0);
    expect(uploadPercent({ loaded: 2.3 * MB, total: 5 * MB })).toBe(46);
    expect(uploadPercent({ loaded: 5 * MB - 1, total: 5 * MB })).toBe(99);
    expect(uploadPercent({ loaded: 5 * MB, total: 5 * MB })).toBe(100);
    expect(uploadPercent({ loaded: 0, total: 0 })).toBe(0);
    expect(progressText({ loaded: 2.3 * MB, total: 5 * MB })).toBe('2.3 MB of 5.0 MB (46%)');
  });

  it('waits for the worker until the video is ready, refused, or gone', () => {
    expect(['processing', 'awaiting-upload', undefined].map((s) => isFinalVideoState(s as never))).toEqual([false, false, false]);
    expect(['ready', 'rejected', 'none'].map((s) => isFinalVideoState(s as never))).toEqual([true, true, true]);
  });
});

describe('putVideoFile', () => {
  it('PUTs the raw file with its content type and reports the bytes sent', async () => {
    const seen: UploadProgress[] = [];
    const file = video();
    const done = putVideoFile('/api/submissions/uploads/v1?token=t', file, { onProgress: (p) => seen.push(p) });
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('/api/submissions/uploads/v1?token=t');
    expect(xhr.headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(xhr.body).toBe(file);
    xhr.progress(MB, 4 * MB);
    xhr.progress(3 * MB, 4 * MB);
    xhr.respond(200, '{"videoId":"v1","size":4194304}');
    await expect(done).resolves.toBeUndefined();
    expect(seen).toEqual([
      { loaded: MB, total: 4 * MB },
      { loaded: 3 * MB, total: 4 * MB },
      { loaded: 4 * MB, total: 4 * MB },
    ]);
  });

  it('rejects on a refusal, a network error, and an abort', async () => {
    const refused = putVideoFile('/u', video());
    FakeXhr.last().respond(413, 'File Too Large: Please upload a video smaller than 150MB.');
    await expect(refused).rejects.toThrow('413: File Too Large: Please upload a video smaller than 150MB.');

    const broken = putVideoFile('/u', video());
    FakeXhr.last().fail();
    await expect(broken).rejects.toThrow('network error');

    const controller = new AbortController();
    const aborted = putVideoFile('/u', video(), { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last().aborted).toBe(true);
  });
});

describe('submitClipWithVideo', () => {
  const happy =
    (overrides: Partial<Record<string, Reply>> = {}) =>
    (call: Call): Reply => {
      const own = overrides[call.url];
      if (own) return own;
      if (call.url === '/api/submissions') return { status: 201, json: { id: 'sub-1' } };
      if (call.url === '/api/submissions/video-upload-url')
        return { json: { uploadUrl: '/api/submissions/uploads/v1?token=t', videoId: 'v1' } };
      return { json: { id: 'sub-1', videoState: 'processing' } };
    };
  const uploadWhenAsked = async (status = 200) => {
    while (FakeXhr.instances.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    FakeXhr.last().respond(status);
  };

  it('creates, asks for the URL, PUTs, finalizes, and answers the processing submission', async () => {
    const gateway = fakeGateway(happy());
    const stages: string[] = [];
    const done = submitClipWithVideo(PAYLOAD, video(), { onStage: (s) => stages.push(s) });
    await uploadWhenAsked();
    await expect(done).resolves.toEqual({ submissionId: 'sub-1', videoId: 'v1', submission: { id: 'sub-1', videoState: 'processing' } });
    expect(gateway.writes()).toEqual([
      { method: 'POST', url: '/api/submissions', body: PAYLOAD },
      { method: 'POST', url: '/api/submissions/video-upload-url', body: { submissionId: 'sub-1' } },
      { method: 'POST', url: '/api/submissions/finalize-video-upload', body: { submissionId: 'sub-1', videoId: 'v1' } },
    ]);
    expect(FakeXhr.last().url).toBe('/api/submissions/uploads/v1?token=t');
    expect(stages).toEqual(['creating', 'uploading', 'finalizing']);
  });

  it('names the step that failed, with the server’s text (spec 01 §8)', async () => {
    fakeGateway(happy({ '/api/submissions': { status: 401, text: 'Not signed in' } }));
    await expect(submitClipWithVideo(PAYLOAD, video())).rejects.toThrow(/^Failed to create submission: Not signed in$/);

    fakeGateway(happy({ '/api/submissions': { status: 201, json: {} } }));
    await expect(submitClipWithVideo(PAYLOAD, video())).rejects.toThrow(/^Submission created but no ID was returned$/);

    fakeGateway(happy({ '/api/submissions/video-upload-url': { status: 409, text: 'This submission already has a video' } }));
    await expect(submitClipWithVideo(PAYLOAD, video())).rejects.toThrow(/^Failed to get upload URL: This submission already has a video$/);

    fakeGateway(happy());
    const storage = submitClipWithVideo(PAYLOAD, video());
    await uploadWhenAsked(500);
    await expect(storage).rejects.toThrow(/^Failed to upload video to storage$/);

    FakeXhr.instances.length = 0;
    fakeGateway(
      happy({
        '/api/submissions/finalize-video-upload': {
          status: 429,
          text: 'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.',
        },
      }),
    );
    const limited = submitClipWithVideo(PAYLOAD, video());
    await uploadWhenAsked();
    await expect(limited).rejects.toThrow(
      /^Failed to finalize video upload: Daily limit reached: you can submit 3 videos per day\. Try again tomorrow\.$/,
    );
  });
});

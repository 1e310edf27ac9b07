import { describe, expect, it } from '@jest/globals';
import {
  buildSubmission,
  checkVideoDuration,
  checkVideoFile,
  formatMegabytes,
  MAX_VIDEO_BYTES,
  parseTweetUrl,
  submissionIdOf,
  videoUploadForm,
} from './clip-submission.js';

describe('post links (spec 01 §5)', () => {
  it('reads the handle and the numeric id of twitter.com and x.com posts, with or without www. or mobile.', () => {
    for (const host of ['twitter.com', 'x.com', 'www.twitter.com', 'www.x.com', 'mobile.twitter.com', 'mobile.x.com']) {
      expect(parseTweetUrl(`https://${host}/clip_king/status/1790000000000000001`)).toEqual({
        authorHandle: 'clip_king',
        externalId: '1790000000000000001',
      });
    }
    expect(parseTweetUrl(' https://x.com/a/status/42?s=20 ')).toEqual({ authorHandle: 'a', externalId: '42' });
    expect(parseTweetUrl('http://x.com/a/status/42/photo/1')).toEqual({ authorHandle: 'a', externalId: '42' });
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      'x.com/a/status/42',
      'https://x.com/a',
      'https://x.com/a/status/abc',
      'https://x.com/status/42',
      'https://evilx.com/a/status/42',
      'https://x.com.evil.io/a/status/42',
      'https://m.twitter.com/a/status/42',
      'https://youtube.com/a/status/42',
      'https://x.com/a/status/42abc',
    ]) {
      expect({ bad, parsed: parseTweetUrl(bad) }).toEqual({ bad, parsed: null });
    }
  });
});

describe('the chosen video', () => {
  it('must be MP4, WebM, MOV/QuickTime or AVI', () => {
    for (const type of ['video/mp4', 'video/webm', 'video/mov', 'video/quicktime', 'video/avi', 'video/x-msvideo']) {
      expect(checkVideoFile({ type, size: 1 })).toBeNull();
    }
    expect(checkVideoFile({ type: 'video/x-matroska', size: 1 })).toEqual({
      title: 'Invalid File Type',
      description: 'Please upload a video file (MP4, WebM, MOV, or AVI).',
    });
    expect(checkVideoFile({ type: '', size: 1 })?.title).toBe('Invalid File Type');
  });

  it('is at most 150 MB', () => {
    expect(checkVideoFile({ type: 'video/mp4', size: MAX_VIDEO_BYTES })).toBeNull();
    expect(checkVideoFile({ type: 'video/mp4', size: MAX_VIDEO_BYTES + 1 })).toEqual({
      title: 'File Too Large',
      description: 'Please upload a video smaller than 150MB.',
    });
  });

  it('lasts at most 40 seconds, floored', () => {
    expect(checkVideoDuration(40.99)).toBeNull();
    expect(checkVideoDuration(0)).toBeNull();
    expect(checkVideoDuration(41.5)).toEqual({ title: 'Video Too Long', description: 'Video must be 40 seconds or less. Your video is 41 seconds.' });
    expect(checkVideoDuration(Number.NaN)).toEqual({ title: 'Invalid Video', description: 'Could not read video file. Please try a different file.' });
    expect(checkVideoDuration(Number.POSITIVE_INFINITY)?.title).toBe('Invalid Video');
  });

  it('shows its size in MB with one decimal', () => {
    expect(formatMegabytes(0)).toBe('0.0 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1.0 MB');
    expect(formatMegabytes(12.34 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatMegabytes(MAX_VIDEO_BYTES)).toBe('150.0 MB');
  });
});

describe('the submission (spec 01 §3)', () => {
  const url = 'https://x.com/clip_king/status/1790000000000000001';

  it('needs a title and a URL', () => {
    const missing = { ok: false, problem: { title: 'Missing Information', description: 'Please fill in the clip title and Twitter URL.' } };
    expect(buildSubmission({ name: ' ', url, streamer: 'none' })).toEqual(missing);
    expect(buildSubmission({ name: 'Clip', url: '', streamer: 'none' })).toEqual(missing);
    expect(buildSubmission({ name: 'Clip', url: 'https://example.com', streamer: 'none' })).toEqual({
      ok: false,
      problem: { title: 'Invalid Twitter URL', description: 'Please enter a valid Twitter/X post URL.' },
    });
  });

  it('carries the id and handle from the link, a pending wallet, no extra info and the streamer or null', () => {
    expect(buildSubmission({ name: ' Big play ', url, streamer: 'none' })).toEqual({
      ok: true,
      payload: {
        name: 'Big play',
        url,
        externalId: '1790000000000000001',
        authorHandle: 'clip_king',
        walletAddress: 'pending',
        additionalInfo: null,
        tokenId: null,
      },
    });
    const tagged = buildSubmission({ name: 'Big play', url, streamer: 'tok-1' });
    expect(tagged.ok && tagged.payload.tokenId).toBe('tok-1');
  });

  it('finds the created id, and builds the video upload form', () => {
    expect(submissionIdOf({ id: 'sub-1' })).toBe('sub-1');
    expect(submissionIdOf({ submission: { id: 7 } })).toBe('7');
    expect(submissionIdOf({})).toBeNull();
    expect(submissionIdOf(null)).toBeNull();
    const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
    const form = videoUploadForm(video, 'sub-1');
    expect((form.get('video') as File).name).toBe('clip.mp4');
    expect(form.get('submissionId')).toBe('sub-1');
  });
});

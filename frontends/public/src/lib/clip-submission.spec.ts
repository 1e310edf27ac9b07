import { describe, expect, it } from '@jest/globals';
import { VIDEO_LIMITS } from '@clipit/field-rules';
import {
  ADDITIONAL_INFO_MAX,
  buildFormSubmission,
  buildSubmission,
  checkVideoDuration,
  checkVideoFile,
  formatMegabytes,
  submissionIdOf,
  VIDEO_ACCEPT,
  VIDEO_HINT,
  videoUploadForm,
} from './clip-submission.js';

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
    expect(VIDEO_ACCEPT).toBe('video/mp4,video/webm,video/mov,video/quicktime,video/avi,video/x-msvideo');
    expect(VIDEO_HINT).toBe('MP4, WebM, MOV or AVI; at most 150MB and 40 seconds.');
  });

  it('is at most 150 MB', () => {
    expect(checkVideoFile({ type: 'video/mp4', size: VIDEO_LIMITS.maxBytes })).toBeNull();
    expect(checkVideoFile({ type: 'video/mp4', size: VIDEO_LIMITS.maxBytes + 1 })).toEqual({
      title: 'File Too Large',
      description: 'Please upload a video smaller than 150MB.',
    });
  });

  it('lasts at most 40 seconds, floored', () => {
    expect(checkVideoDuration(40.99)).toBeNull();
    expect(checkVideoDuration(0)).toBeNull();
    expect(checkVideoDuration(41.5)).toEqual({
      title: 'Video Too Long',
      description: 'Video must be 40 seconds or less. Your video is 41 seconds.',
    });
    expect(checkVideoDuration(Number.NaN)).toEqual({
      title: 'Invalid Video',
      description: 'Could not read video file. Please try a different file.',
    });
    expect(checkVideoDuration(Number.POSITIVE_INFINITY)?.title).toBe('Invalid Video');
  });

  it('shows its size in MB with one decimal', () => {
    expect(formatMegabytes(0)).toBe('0.0 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1.0 MB');
    expect(formatMegabytes(12.34 * 1024 * 1024)).toBe('12.3 MB');
    expect(formatMegabytes(VIDEO_LIMITS.maxBytes)).toBe('150.0 MB');
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

  // The dialog once read any handle length and any number of digits, and sent links the submissions
  // service refused; it now reads links by the service's rule (@clipit/field-rules' parsePostUrl).
  it('refuses, before sending, the links the submissions service refuses', () => {
    const invalid = { ok: false, problem: { title: 'Invalid Twitter URL', description: 'Please enter a valid Twitter/X post URL.' } };
    expect(buildSubmission({ name: 'Clip', url: 'https://x.com/this_handle_is_too_long/status/1', streamer: 'none' })).toEqual(invalid);
    expect(buildSubmission({ name: 'Clip', url: `https://x.com/a/status/${'9'.repeat(26)}`, streamer: 'none' })).toEqual(invalid);
    expect(buildSubmission({ name: 'Clip', url: 'https://mobile.x.com/fifteen_chars_x/status/1?s=20', streamer: 'none' })).toMatchObject({
      ok: true,
      payload: { authorHandle: 'fifteen_chars_x', externalId: '1' },
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

describe('the submission form (spec 01 §3, §5)', () => {
  const url = 'https://x.com/clip_king/status/1790000000000000001';
  const form = { name: 'Big play', url, streamer: 'none', additionalInfo: '' };

  it('needs a title and a URL, a Twitter/X post, then a video, in its own words', () => {
    expect(buildFormSubmission({ ...form, name: ' ' }, true)).toEqual({
      ok: false,
      problem: { title: 'Missing Information', description: 'Please fill in all required fields.' },
    });
    expect(buildFormSubmission({ ...form, url: '' }, true)).toMatchObject({ ok: false, problem: { title: 'Missing Information' } });
    expect(buildFormSubmission({ ...form, url: 'https://example.com/a/status/1' }, true)).toEqual({
      ok: false,
      problem: { title: 'Invalid Twitter URL', description: 'Please enter a valid Twitter/X post URL.' },
    });
    expect(buildFormSubmission(form, false)).toEqual({
      ok: false,
      problem: { title: 'Video Required', description: "Please upload a video. Your clip won't appear in the feed without a video." },
    });
  });

  it('sends an empty wallet, the note (at most 150) or null, and the streamer id or null', () => {
    expect(buildFormSubmission(form, true)).toEqual({
      ok: true,
      payload: {
        name: 'Big play',
        url,
        externalId: '1790000000000000001',
        authorHandle: 'clip_king',
        walletAddress: '',
        additionalInfo: null,
        streamerId: null,
      },
    });
    const tagged = buildFormSubmission({ ...form, streamer: 'st-1', additionalInfo: ` ${'n'.repeat(160)} ` }, true);
    expect(tagged.ok && tagged.payload.streamerId).toBe('st-1');
    expect(tagged.ok && tagged.payload.additionalInfo).toBe('n'.repeat(ADDITIONAL_INFO_MAX));
    expect(ADDITIONAL_INFO_MAX).toBe(150);
  });
});

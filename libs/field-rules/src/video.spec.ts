import { describe, expect, it } from '@jest/globals';
import { bareContentType, isVideoContentType, isVideoTooLong, VIDEO_LIMITS, VIDEO_MESSAGES, VIDEO_PROBLEMS } from './video.js';

describe('video limits (spec 01 §5, §9)', () => {
  it('are 150 MB, 40 s, 1080 px and 3 videos a day', () => {
    expect(VIDEO_LIMITS).toMatchObject({ maxBytes: 157_286_400, maxDurationSeconds: 40, maxLongSide: 1080, dailyVideoSubmissions: 3 });
  });

  it('accept the spec types, ignoring case and parameters', () => {
    for (const type of ['video/mp4', 'video/webm', 'video/mov', 'video/quicktime', 'video/avi', 'video/x-msvideo']) {
      expect(isVideoContentType(type)).toBe(true);
    }
    expect(isVideoContentType('Video/MP4; codecs="avc1"')).toBe(true);
    for (const type of ['video/x-matroska', 'image/png', 'video', '', null, undefined]) expect(isVideoContentType(type)).toBe(false);
    expect(bareContentType(' Video/MP4 ; codecs=x')).toBe('video/mp4');
    expect(bareContentType(undefined)).toBe('');
  });

  it('count whole seconds: 40.99 s is 40 s', () => {
    expect(isVideoTooLong(0)).toBe(false);
    expect(isVideoTooLong(40)).toBe(false);
    expect(isVideoTooLong(40.99)).toBe(false);
    expect(isVideoTooLong(41)).toBe(true);
    expect(isVideoTooLong(11, 10)).toBe(true);
  });
});

describe('video messages', () => {
  it('are the spec words, as a toast', () => {
    expect(VIDEO_PROBLEMS.invalidType).toEqual({
      title: 'Invalid File Type',
      description: 'Please upload a video file (MP4, WebM, MOV, or AVI).',
    });
    expect(VIDEO_PROBLEMS.tooLarge).toEqual({ title: 'File Too Large', description: 'Please upload a video smaller than 150MB.' });
    expect(VIDEO_PROBLEMS.tooLong(41.7)).toEqual({
      title: 'Video Too Long',
      description: 'Video must be 40 seconds or less. Your video is 41 seconds.',
    });
    expect(VIDEO_PROBLEMS.invalid).toEqual({
      title: 'Invalid Video',
      description: 'Could not read video file. Please try a different file.',
    });
  });

  it('are the same words as one line, for the services', () => {
    expect(VIDEO_MESSAGES.invalidType).toBe('Invalid File Type: Please upload a video file (MP4, WebM, MOV, or AVI).');
    expect(VIDEO_MESSAGES.tooLarge).toBe('File Too Large: Please upload a video smaller than 150MB.');
    expect(VIDEO_MESSAGES.tooLong(45.2)).toBe('Video Too Long: Video must be 40 seconds or less. Your video is 45 seconds.');
    expect(VIDEO_MESSAGES.invalid).toBe('Invalid Video: Could not read video file. Please try a different file.');
    expect(VIDEO_MESSAGES.processingFailed).toBe('Processing Failed: We could not process this video. Please upload it again.');
  });
});

import { describe, expect, it } from '@jest/globals';
import type { ProbeResult } from './ffmpeg/probe.js';
import { DEFAULT_MAX_BIT_RATE } from './ffmpeg/transcode.js';
import { webReadiness } from './web-ready.js';

const phoneReady: ProbeResult = {
  durationSeconds: 30,
  width: 1080,
  height: 1920,
  aspectRatio: '9:16',
  videoCodec: 'h264',
  videoProfile: 'High',
  videoLevel: 42,
  pixelFormat: 'yuv420p',
  audioCodec: 'aac',
  bitRate: 5_900_000,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  rotation: 0,
};
const why = (patch: Partial<ProbeResult>, cap?: number) => {
  const verdict = webReadiness({ ...phoneReady, ...patch }, cap);
  return verdict.playsAsIs ? [] : verdict.why;
};

describe('webReadiness', () => {
  it('takes H.264 baseline, main or high up to level 4.2 in yuv420p, with AAC or no sound, up to 1080x1920 either way', () => {
    for (const videoProfile of ['Baseline', 'Constrained Baseline', 'Main', 'High']) expect(why({ videoProfile })).toEqual([]);
    expect(why({ audioCodec: null })).toEqual([]);
    expect(why({ width: 1920, height: 1080 })).toEqual([]);
    expect(why({ width: 720, height: 1280, videoLevel: 31 })).toEqual([]);
    expect(why({ formatName: 'matroska,webm' })).toEqual([]);
  });

  it('names every reason a clip does not play as it is', () => {
    expect(why({ videoCodec: 'hevc', videoProfile: 'Main' })).toEqual(['video codec hevc, not H.264']);
    expect(why({ videoProfile: 'High 10' })).toEqual(['H.264 profile High 10']);
    expect(why({ videoProfile: null })).toEqual(['H.264 profile unknown']);
    expect(why({ videoLevel: 50 })).toEqual(['H.264 level 5.0, above 4.2']);
    expect(why({ videoLevel: null })).toEqual(['H.264 level unknown, above 4.2']);
    expect(why({ pixelFormat: 'yuvj420p' })).toEqual(['pixel format yuvj420p, not yuv420p']);
    expect(why({ audioCodec: 'opus' })).toEqual(['audio codec opus, not AAC']);
    expect(why({ width: 1440, height: 2560 })).toEqual(['1440x2560, larger than 1080x1920']);
    expect(why({ width: 1200, height: 1200 })).toEqual(['1200x1200, larger than 1080x1920']);
    expect(why({ bitRate: null })).toEqual(['bit rate unknown']);
    expect(why({ videoCodec: 'vp9', pixelFormat: 'yuv420p', audioCodec: 'opus' })).toEqual([
      'video codec vp9, not H.264',
      'audio codec opus, not AAC',
    ]);
  });

  it('holds the bit rate strictly under the cap (8 Mb/s unless configured)', () => {
    expect(DEFAULT_MAX_BIT_RATE).toBe(8_000_000);
    expect(why({ bitRate: 7_999_999 })).toEqual([]);
    expect(why({ bitRate: 8_000_000 })).toEqual(['8000 kb/s, not under the 8000 kb/s cap']);
    expect(why({ bitRate: 2_500_000 }, 2_000_000)).toEqual(['2500 kb/s, not under the 2000 kb/s cap']);
  });
});

import { describe, expect, it } from '@jest/globals';
import { seededUint32 as random } from '../test/support/seeded-random.js';
import { encodeAudio } from './audio-match.js';
import {
  compareFingerprints,
  isReupload,
  NEAR_FRAME_BITS,
  SHOT_BITS,
  shotsOf,
  samplesOf,
  SINGLE_SHOT_DISTANCE,
  VIDEO_MATCH_DISTANCE,
} from './compare.js';
import { ZOOMS } from './frame-hash.js';
import { FINGERPRINT_VERSION, type ClipFingerprint } from './types.js';

const hex = (hi: number, lo: number) => (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');

/** `count` sampled frames of unrelated pictures: ZOOMS.length random hashes each. */
function frames(count: number, seed: number): string[][] {
  const next = random(seed);
  return Array.from({ length: count }, () => ZOOMS.map(() => hex(next(), next())));
}

/** A hash with `bits` of its bits flipped (the first ones of each half, alternately). */
function flip(hash: string, bits: number): string {
  let hi = parseInt(hash.slice(0, 8), 16);
  let lo = parseInt(hash.slice(8), 16);
  for (let b = 0; b < bits; b += 1) {
    if (b % 2) lo ^= 1 << (b >> 1);
    else hi ^= 1 << (b >> 1);
  }
  return hex(hi, lo);
}

const fingerprint = (samples: string[][], audio: string | null = null): ClipFingerprint => ({
  version: FINGERPRINT_VERSION,
  frames: samples.flat(),
  audio,
});

/** A clip's frames with every hash `bits` away: what a re-encode or a scale does. */
const blurred = (samples: string[][], bits: number) => samples.map((sample) => sample.map((h) => flip(h, bits)));

describe('compareFingerprints: pictures', () => {
  const clip = frames(20, 1);

  it('finds the same pictures at distance 0', () => {
    expect(compareFingerprints(fingerprint(clip), fingerprint(clip))).toEqual({ videoDistance: 0, videoMatches: true, audioMatches: null });
  });

  it('matches frames up to the threshold, and no further', () => {
    expect(compareFingerprints(fingerprint(clip), fingerprint(blurred(clip, 8)))).toMatchObject({
      videoDistance: 8 / 64,
      videoMatches: true,
    });
    const limit = Math.round(VIDEO_MATCH_DISTANCE * 64);
    expect(compareFingerprints(fingerprint(clip), fingerprint(blurred(clip, limit))).videoMatches).toBe(true);
    const far = compareFingerprints(fingerprint(clip), fingerprint(blurred(clip, limit + 2)));
    expect(far).toMatchObject({ videoDistance: (limit + 2) / 64, videoMatches: false });
    expect(NEAR_FRAME_BITS).toBeGreaterThanOrEqual(limit);
  });

  it('finds nothing alike in unrelated clips', () => {
    const c = compareFingerprints(fingerprint(clip), fingerprint(frames(20, 2)));
    expect(c.videoMatches).toBe(false);
    expect(c.videoDistance).toBeGreaterThan(0.25);
  });

  it('matches a trimmed copy through the better-covered clip: the copy, all of whose frames are in the original', () => {
    const middle = clip.slice(4, 16);
    expect(compareFingerprints(fingerprint(clip), fingerprint(middle))).toMatchObject({ videoDistance: 0, videoMatches: true });
    expect(compareFingerprints(fingerprint(middle), fingerprint(clip))).toMatchObject({ videoDistance: 0, videoMatches: true });
  });

  it('matches a sped-up copy (frames sampled 1.1 s of the original apart) and a slowed one', () => {
    const fast = Array.from({ length: 18 }, (_, i) => clip[Math.round(i * 1.1)]!);
    expect(compareFingerprints(fingerprint(clip), fingerprint(fast)).videoMatches).toBe(true);
    const slow = Array.from({ length: 22 }, (_, i) => clip[Math.min(19, Math.round(i / 1.1))]!);
    expect(compareFingerprints(fingerprint(clip), fingerprint(slow)).videoMatches).toBe(true);
  });

  it("matches a cropped copy's whole view with the original's zoomed views, either way round", () => {
    // The copy's whole view is the original's zoomed one; its own zoomed views show what the original never did.
    const cropped = frames(20, 3).map((other, i) => [clip[i]![2]!, other[1]!, other[2]!]);
    expect(compareFingerprints(fingerprint(clip), fingerprint(cropped))).toMatchObject({ videoDistance: 0, videoMatches: true });
    expect(compareFingerprints(fingerprint(cropped), fingerprint(clip))).toMatchObject({ videoDistance: 0, videoMatches: true });
  });

  it('does not compare zoomed views with zoomed views', () => {
    const zoomedOnly = frames(20, 4).map((other, i) => [other[0]!, clip[i]![1]!, clip[i]![2]!]);
    expect(compareFingerprints(fingerprint(clip), fingerprint(zoomedOnly)).videoMatches).toBe(false);
  });

  it('wants the near frames in order: the same frames shuffled are look-alikes, not a copy', () => {
    const next = random(9);
    const shuffled = [...clip].sort(() => (next() % 2 ? 1 : -1));
    const c = compareFingerprints(fingerprint(clip), fingerprint(shuffled));
    expect(c.videoDistance).toBe(0);
    expect(c.videoMatches).toBe(false);
  });

  it('wants at least half the frames of the better-covered clip, and at least three', () => {
    const half = clip.map((sample, i) => (i < 10 ? sample : frames(1, 100 + i)[0]!));
    expect(compareFingerprints(fingerprint(clip), fingerprint(half)).videoMatches).toBe(true);
    const fewer = clip.map((sample, i) => (i < 9 ? sample : frames(1, 100 + i)[0]!));
    expect(compareFingerprints(fingerprint(clip), fingerprint(fewer)).videoMatches).toBe(false);
    // Two frames against two: all of a clip that short.
    expect(compareFingerprints(fingerprint(clip.slice(0, 2)), fingerprint(clip.slice(0, 2))).videoMatches).toBe(true);
    expect(compareFingerprints(fingerprint(clip.slice(0, 2)), fingerprint([clip[0]!, frames(1, 50)[0]!])).videoMatches).toBe(false);
  });

  it('asks more of a match that rests on one held shot: a plain picture held for seconds is not a copy', () => {
    // Ten samples of one held shot.
    const held = Array.from({ length: 10 }, () => clip[0]!);
    expect(new Set(shotsOf(samplesOf(held.flat()))).size).toBe(1);
    const strict = Math.round(SINGLE_SHOT_DISTANCE * 64);
    expect(compareFingerprints(fingerprint(held), fingerprint(blurred(held, strict))).videoMatches).toBe(true);
    const lookalike = compareFingerprints(fingerprint(held), fingerprint(blurred(held, strict + 2)));
    expect(lookalike.videoDistance).toBeLessThanOrEqual(VIDEO_MATCH_DISTANCE);
    expect(lookalike.videoMatches).toBe(false);
    // The same distance over frames of several shots is a copy.
    expect(compareFingerprints(fingerprint(clip), fingerprint(blurred(clip, strict + 2))).videoMatches).toBe(true);
  });

  it('starts a new shot at a frame more than SHOT_BITS from the first of the current one', () => {
    const first = clip[0]!;
    const samples = [first, first.map((h) => flip(h, SHOT_BITS)), first.map((h) => flip(h, SHOT_BITS + 2)), clip[1]!];
    expect(shotsOf(samplesOf(samples.flat()))).toEqual([0, 0, 1, 2]);
  });

  it('finds nothing in a clip without frames (all black, or one colour)', () => {
    expect(compareFingerprints(fingerprint([]), fingerprint(clip))).toEqual({ videoDistance: 1, videoMatches: false, audioMatches: null });
    expect(compareFingerprints(fingerprint([]), fingerprint([])).videoMatches).toBe(false);
  });
});

describe('compareFingerprints: sound, and isReupload', () => {
  const clip = frames(10, 5);
  const next = random(6);
  const sound = encodeAudio(Array.from({ length: 120 }, next));
  const otherSound = encodeAudio(Array.from({ length: 120 }, next));

  it('says whether the sound matches, or null when a side has none', () => {
    expect(compareFingerprints(fingerprint(clip, sound), fingerprint(clip, sound)).audioMatches).toBe(true);
    expect(compareFingerprints(fingerprint(clip, sound), fingerprint(clip, otherSound)).audioMatches).toBe(false);
    expect(compareFingerprints(fingerprint(clip, sound), fingerprint(clip, null)).audioMatches).toBeNull();
    expect(compareFingerprints(fingerprint(clip, null), fingerprint(clip, sound)).audioMatches).toBeNull();
  });

  it('is a re-upload when the pictures match and the sound matches or is missing on a side', () => {
    expect(isReupload({ videoDistance: 0, videoMatches: true, audioMatches: true })).toBe(true);
    expect(isReupload({ videoDistance: 0, videoMatches: true, audioMatches: null })).toBe(true);
    expect(isReupload({ videoDistance: 0, videoMatches: true, audioMatches: false })).toBe(false);
    expect(isReupload({ videoDistance: 0.5, videoMatches: false, audioMatches: true })).toBe(false);
    expect(isReupload(compareFingerprints(fingerprint(clip, sound), fingerprint(blurred(clip, 4), sound)))).toBe(true);
    expect(isReupload(compareFingerprints(fingerprint(clip, sound), fingerprint(frames(10, 7), sound)))).toBe(false);
  });
});

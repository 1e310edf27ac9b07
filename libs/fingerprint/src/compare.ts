import { audioPrintsMatch, decodeAudio, popcount32 } from './audio-match.js';
import { alongOneLine, type Match } from './alignment.js';
import { ZOOMS } from './frame-hash.js';
import type { ClipFingerprint, FingerprintComparison } from './types.js';

/**
 * A frame of one clip has a near frame in the other when their hashes differ in at most this many of 64 bits.
 * Measured on generated clips (README): copies re-encoded, scaled, mirrored, cropped or boxed 0–6 bits from
 * their original's frames; sped up 1.1x, whose samples fall up to a third of a second from the original's,
 * mostly 0–8 with a few up to 20; unrelated frames 20–40, seldom under 14.
 */
export const NEAR_FRAME_BITS = 12;

/**
 * The video matches when the median distance to the nearest frame is at most this (10 bits of 64). Measured on
 * generated clips: copies at most 8 (sped up; the others 0–6); unrelated clips at least 12, but for a few pairs
 * (8–10 bits, sharing a scene of a similar plain picture) that the rules below stop. Hashes split their bits
 * evenly, so distances are even: this is one step above the copies and one below the unrelated clips. A sped-up
 * copy of a picture that turns over within a fraction of a second (a morphing fractal) lands beyond it: its
 * samples fall up to a third of a second from the original's.
 */
export const VIDEO_MATCH_DISTANCE = 10 / 64;

/** …and at least this many frames (all of a clip with fewer) have a near frame, in order (compareFrames). */
export const MIN_MATCHED_FRAMES = 3;
/** A copy's near frames lie along one line ({@link alongOneLine}) whose rate is within this of 1: a speed change of up to 20 %. */
export const VIDEO_MAX_DRIFT = 0.2;
/** …within this many frames either way: a sample lands up to half an interval from the original's, and a held shot matches its neighbours. */
export const VIDEO_LINE_TOLERANCE = 1.5;

/**
 * Sampled frames within this many bits of the first frame of their run are one shot: a held shot, sampled
 * several times, gives several frames that are one picture, and one piece of evidence.
 */
export const SHOT_BITS = 10;
/**
 * When all the near frames in line are of one shot, the match must be this close (6 bits of 64): two unrelated
 * clips can each hold a shot of a similar plain picture (a gradient, a dim room) for seconds, which alone is
 * not a copy. A copy of a one-shot clip (a talking head on a tripod) stays under it: re-encoded, scaled,
 * mirrored, cropped or boxed, its frames are 0–6 bits from the original's.
 */
export const SINGLE_SHOT_DISTANCE = 6 / 64;

/** A hash as two 32-bit halves (JavaScript's bit operators are 32-bit). */
type Hash = readonly [hi: number, lo: number];
/** A sampled frame: its hashes, one per view of ZOOMS (the whole content box first). */
type Sample = readonly Hash[];

interface Decoded {
  samples: Sample[];
  audio: Uint32Array | null;
}

/**
 * Decoded forms of fingerprints already compared: a new clip is compared with many candidates, and a
 * benchmark compares every pair of hundreds; hex and base64 are decoded once per fingerprint object.
 */
const decoded = new WeakMap<ClipFingerprint, Decoded>();

/** The hashes of a fingerprint's frames, grouped by sampled frame. */
export function samplesOf(frames: readonly string[]): Sample[] {
  const hashes = frames.map((h) => [parseInt(h.slice(0, 8), 16), parseInt(h.slice(8, 16), 16)] as const);
  const samples: Sample[] = [];
  for (let k = 0; k + ZOOMS.length <= hashes.length; k += ZOOMS.length) samples.push(hashes.slice(k, k + ZOOMS.length));
  return samples;
}

function decode(fp: ClipFingerprint): Decoded {
  let d = decoded.get(fp);
  if (!d) {
    d = { samples: samplesOf(fp.frames), audio: fp.audio === null ? null : decodeAudio(fp.audio) };
    decoded.set(fp, d);
  }
  return d;
}

const hamming = (a: Hash, b: Hash) => popcount32(a[0] ^ b[0]) + popcount32(a[1] ^ b[1]);

/**
 * The distance between two sampled frames: the nearest of their views where at least one side is whole
 * (whole to whole, whole to zoomed either way). Zoomed to zoomed adds nothing a crop needs and would only
 * give unrelated frames more chances to meet.
 */
export function sampleDistance(a: Sample, b: Sample): number {
  let best = hamming(a[0]!, b[0]!);
  for (let z = 1; z < a.length && best > 0; z += 1) best = Math.min(best, hamming(a[z]!, b[0]!));
  for (let z = 1; z < b.length && best > 0; z += 1) best = Math.min(best, hamming(a[0]!, b[z]!));
  return best;
}

/** Every sampled frame of `a` against every one of `b`: distances[i][j]. */
export function distanceMatrix(a: readonly Sample[], b: readonly Sample[]): number[][] {
  return a.map((f) => b.map((t) => sampleDistance(f, t)));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One clip's frames measured against the other's: the median nearest distance, and its frames' near matches. */
function side(samples: readonly Sample[], distances: readonly (readonly number[])[]) {
  const matches: Match[] = [];
  distances.forEach((row, at) => row.forEach((d, offset) => d <= NEAR_FRAME_BITS && matches.push({ at, offset })));
  return { samples, median: median(distances.map((row) => Math.min(...row))), matches };
}

/** For each sampled frame, its shot's number: a new shot starts at a frame more than SHOT_BITS from the first frame of the current one. */
export function shotsOf(samples: readonly Sample[]): number[] {
  let shot = -1;
  let first: Hash | undefined;
  return samples.map((sample) => {
    if (!first || hamming(first, sample[0]!) > SHOT_BITS) {
      shot += 1;
      first = sample[0]!;
    }
    return shot;
  });
}

/**
 * How the pictures of `a` and `b` compare ({@link FingerprintComparison}'s video half). Each direction is
 * measured (a trimmed copy's frames are all in its original, not the other way round), and the better-covered
 * clip, the one with the lower median, speaks for the pair. Its frames must also have near frames in order:
 * at least half of them, and at least MIN_MATCHED_FRAMES (all of a shorter clip), along one line in time
 * ({@link alongOneLine}; a speed change of up to VIDEO_MAX_DRIFT). Unrelated clips meet on look-alike
 * frames (a smooth gradient, a plain wall) here and there; a copy meets its original frame after frame.
 * And when those frames are all one shot, the match must be closer (SINGLE_SHOT_DISTANCE).
 */
export function compareFrames(a: readonly Sample[], b: readonly Sample[]): Pick<FingerprintComparison, 'videoDistance' | 'videoMatches'> {
  if (a.length === 0 || b.length === 0) return { videoDistance: 1, videoMatches: false };
  const forward = distanceMatrix(a, b);
  const backward = b.map((_, j) => forward.map((row) => row[j]!));
  const sides = [side(a, forward), side(b, backward)];
  const better = sides[0]!.median <= sides[1]!.median ? sides[0]! : sides[1]!;
  const videoDistance = better.median / 64;
  const frames = better.samples.length;
  const needed = Math.max(Math.min(MIN_MATCHED_FRAMES, frames), Math.ceil(frames / 2));
  if (videoDistance > VIDEO_MATCH_DISTANCE) return { videoDistance, videoMatches: false };
  const inLine = alongOneLine(better.matches, VIDEO_MAX_DRIFT, VIDEO_LINE_TOLERANCE);
  const shots = shotsOf(better.samples);
  const oneShot = new Set(inLine.map((at) => shots[at])).size < 2;
  return { videoDistance, videoMatches: inLine.length >= needed && (!oneShot || videoDistance <= SINGLE_SHOT_DISTANCE) };
}

/** Compares two fingerprints of the same FINGERPRINT_VERSION (callers parse stored ones with parseFingerprint first). */
export function compareFingerprints(a: ClipFingerprint, b: ClipFingerprint): FingerprintComparison {
  const da = decode(a);
  const db = decode(b);
  return {
    ...compareFrames(da.samples, db.samples),
    audioMatches: da.audio && db.audio ? audioPrintsMatch(da.audio, db.audio) : null,
  };
}

/**
 * Whether a comparison is a re-upload: the video matches and the audio matches or is missing on a side.
 * The video decides: many unrelated clips share a sound (a trending track), so sound alone never flags a
 * clip; and a copy whose sound was dropped still is one. Sound that clearly differs clears a clip whose
 * pictures match: the same footage with other commentary or music is a reaction or a remix, for a person to
 * judge, not an automatic flag.
 */
export function isReupload(c: FingerprintComparison): boolean {
  return c.videoMatches && c.audioMatches !== false;
}

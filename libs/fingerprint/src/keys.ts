import { ZOOMS } from './frame-hash.js';
import type { ClipFingerprint } from './types.js';

/** Each frame hash gives this many index keys: bands of BAND_BITS bits (the last 64 - BANDS * BAND_BITS bits unused). */
export const BANDS = 3;
export const BAND_BITS = 21;

/**
 * A candidate from the index is compared in full only when it shares at least this many keys with the new clip.
 * Measured on generated clips (`npm run bench:fingerprint`, libs/media README): every kind of copy of a 20 s scene
 * clip shares at least 25 keys with its original, but a copy made of several changes at once of a clip whose
 * frames are alike (a test card mirrored, trimmed, scaled down and encoded again: 9 of 64 bits away) shares 3.
 * Among 500 unrelated clips, 0.013 % of pairs share 2 and none more than 3: at 100,000 stored clips about a dozen
 * candidates a lookup, each compared in full in well under a millisecond. The full comparison decides; the index
 * only has to keep a hard copy in.
 */
export const MIN_SHARED_KEYS = 2;

/**
 * Which views a key was cut from: a stored clip's whole content box, or one of its zoomed views. Keys of the
 * two never meet, so a lookup reads only the pairs of views the comparison uses (whole to whole, whole to
 * zoomed either way: compare.ts's sampleDistance), never zoomed to zoomed.
 */
const BAND_MASK = (1n << BigInt(BAND_BITS)) - 1n;
const WHOLE = 0;
const ZOOMED = 1;

/** The key of band `band` of `hash` in view space `space`: space and band in the top bits, the band's bits below. */
function bandKeys(hash: string, space: number, into: Set<number>): void {
  const bits = BigInt(`0x${hash}`);
  for (let band = 0; band < BANDS; band += 1) {
    // Bits [band * BAND_BITS, (band + 1) * BAND_BITS) of the 64, counted from the top: the steadiest, lowest frequencies first.
    const value = Number((bits >> BigInt(64 - (band + 1) * BAND_BITS)) & BAND_MASK);
    into.add((space * BANDS + band) * 2 ** BAND_BITS + value);
  }
}

/** Each sampled frame's hashes with the view they were taken at (ZOOMS' order: the whole box first). */
function views(fp: ClipFingerprint, each: (hash: string, whole: boolean) => void): void {
  fp.frames.forEach((hash, i) => each(hash, i % ZOOMS.length === 0));
}

const sorted = (keys: Set<number>) => [...keys].sort((a, b) => a - b);

/**
 * The keys a stored clip is found by, locality-sensitive: each frame hash cut into BANDS bands of BAND_BITS
 * bits, so two hashes within BANDS - 1 bits of each other always share a key (pigeonhole) and nearer ones
 * most often share several. A whole view's keys and a zoomed view's keys are kept apart (the view space).
 * Deduplicated and sorted, non-negative and below 2^31 (a Postgres integer), so a store finds candidates
 * with an indexed `key = ANY($1)` lookup instead of comparing with every clip. Only the pictures are
 * indexed: a re-upload is decided by them (isReupload), and a shared sound would make every clip on a
 * trending track a candidate.
 */
export function indexKeys(fp: ClipFingerprint): number[] {
  const keys = new Set<number>();
  views(fp, (hash, whole) => bandKeys(hash, whole ? WHOLE : ZOOMED, keys));
  return sorted(keys);
}

/**
 * The keys a new clip looks stored clips up by: its whole views against stored whole and zoomed views (it
 * may be a crop of a stored clip), its zoomed views against stored whole views only (a stored clip may be a
 * crop of it). Half the index entries a symmetric lookup would read, for the same pairs of views.
 */
export function probeKeys(fp: ClipFingerprint): number[] {
  const keys = new Set<number>();
  views(fp, (hash, whole) => {
    bandKeys(hash, WHOLE, keys);
    if (whole) bandKeys(hash, ZOOMED, keys);
  });
  return sorted(keys);
}

/** How many keys two sorted key lists share (probeKeys of one clip, indexKeys of another). */
export function sharedKeys(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a[i]! < b[j]!) i += 1;
    else j += 1;
  }
  return shared;
}

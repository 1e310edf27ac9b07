import { describe, expect, it } from '@jest/globals';
import { seededUint32 } from '../test/support/seeded-random.js';
import { ZOOMS } from './frame-hash.js';
import { BAND_BITS, BANDS, indexKeys, MIN_SHARED_KEYS, probeKeys, sharedKeys } from './keys.js';
import { FINGERPRINT_VERSION, type ClipFingerprint } from './types.js';

const fp = (frames: string[]): ClipFingerprint => ({ version: FINGERPRINT_VERSION, frames, audio: null });
const next = seededUint32(7);
const randomHash = () => [next(), next()].map((v) => v.toString(16).padStart(8, '0')).join('');
/** A hash with `bits` distinct random bits flipped. */
function near(hash: string, bits: number): string {
  let value = BigInt(`0x${hash}`);
  const flipped = new Set<number>();
  while (flipped.size < bits) flipped.add(next() % 64);
  for (const b of flipped) value ^= 1n << BigInt(b);
  return value.toString(16).padStart(16, '0');
}
/** One sampled frame: the whole view, then the zoomed ones. */
const sample = (whole: string, ...zoomed: string[]) => [whole, ...zoomed];
const SPACE = BANDS * 2 ** BAND_BITS;

describe('indexKeys', () => {
  it('cuts each hash into bands from its top bits: (space * BANDS + band) << BAND_BITS | value, whole views in space 0', () => {
    const keys = indexKeys(fp(sample('ffffffffffffffff', '0000000000000000', '0000000000000000')));
    const all = 2 ** BAND_BITS - 1;
    expect(keys).toEqual([all, 2 ** BAND_BITS + all, 2 * 2 ** BAND_BITS + all, SPACE, SPACE + 2 ** BAND_BITS, SPACE + 2 * 2 ** BAND_BITS]);
    // The first band is the top BAND_BITS bits.
    const [first] = indexKeys(fp(sample('8000000000000000', '8000000000000000', '8000000000000000')));
    expect(first).toBe(2 ** (BAND_BITS - 1));
  });

  it('deduplicates and sorts, and gives non-negative integers below 2^31 (a Postgres integer)', () => {
    const hashes = Array.from({ length: ZOOMS.length * 20 }, randomHash);
    const keys = indexKeys(fp([...hashes, ...hashes]));
    expect(keys).toEqual([...new Set(keys)].sort((a, b) => a - b));
    expect(keys).toHaveLength(hashes.length * BANDS);
    expect(keys.every((k) => Number.isInteger(k) && k >= 0 && k < 2 ** 31)).toBe(true);
    expect(indexKeys(fp([]))).toEqual([]);
  });
});

describe('probeKeys against indexKeys', () => {
  it('finds a stored frame within BANDS - 1 bits, whole to whole', () => {
    for (let n = 0; n < 200; n += 1) {
      const hash = randomHash();
      const stored = indexKeys(fp(sample(hash, randomHash(), randomHash())));
      const probe = probeKeys(fp(sample(near(hash, BANDS - 1), randomHash(), randomHash())));
      expect(sharedKeys(probe, stored)).toBeGreaterThanOrEqual(1);
    }
  });

  it('finds a new whole view in a stored zoomed view (the new clip is a crop), and a new zoomed view in a stored whole view (the stored clip is)', () => {
    const whole = randomHash();
    const zoomed = randomHash();
    const stored = indexKeys(fp(sample(whole, zoomed, randomHash())));
    expect(sharedKeys(probeKeys(fp(sample(zoomed, randomHash(), randomHash()))), stored)).toBe(BANDS);
    expect(sharedKeys(probeKeys(fp(sample(randomHash(), whole, randomHash()))), stored)).toBe(BANDS);
  });

  it('never meets zoomed view with zoomed view: the comparison does not use that pair', () => {
    const zoomed = randomHash();
    const stored = indexKeys(fp(sample(randomHash(), zoomed, randomHash())));
    expect(sharedKeys(probeKeys(fp(sample(randomHash(), zoomed, randomHash()))), stored)).toBe(0);
  });

  it('counts the keys two sorted lists share', () => {
    expect(sharedKeys([1, 3, 5, 7], [2, 3, 4, 7, 9])).toBe(2);
    expect(sharedKeys([], [1])).toBe(0);
    expect(MIN_SHARED_KEYS).toBeGreaterThanOrEqual(1);
  });
});

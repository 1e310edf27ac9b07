import { describe, expect, it } from '@jest/globals';
import { seededUint32 as random } from '../test/support/seeded-random.js';
import {
  audioPrintsMatch,
  AUDIO_WINDOW,
  decodeAudio,
  encodeAudio,
  isPrintable,
  matchWindows,
  MIN_AUDIO_ITEMS,
  popcount32,
} from './audio-match.js';

/**
 * A print like Chromaprint's: neighbouring values share most of their bits (each is computed over a stretch of
 * sound that overlaps the next), here by changing a few random bits from one value to the next.
 */
function print(length: number, seed: number): Uint32Array {
  const next = random(seed);
  const out = new Uint32Array(length);
  let v = next();
  for (let i = 0; i < length; i += 1) {
    for (let b = 0; b < 6; b += 1) v ^= 1 << (next() % 32);
    out[i] = v >>> 0;
  }
  return out;
}

/** `values` with a share `rate` of their bits flipped: a re-encode's noise. */
function noisy(values: Uint32Array, rate: number, seed: number): Uint32Array {
  const next = random(seed);
  return values.map((v) => {
    let out = v;
    for (let b = 0; b < 32; b += 1) if (next() / 2 ** 32 < rate) out ^= 1 << b;
    return out >>> 0;
  });
}

/** The print of the same sound played `speed` times faster (atempo keeps the pitch; only time shrinks). */
const faster = (values: Uint32Array, speed: number) =>
  Uint32Array.from({ length: Math.floor(values.length / speed) }, (_, i) => values[Math.min(values.length - 1, Math.round(i * speed))]!);

describe('audio prints', () => {
  it('are base64 of little-endian uint32 values, whatever the machine', () => {
    expect(encodeAudio([0x01020304])).toBe(Buffer.from([4, 3, 2, 1]).toString('base64'));
    const values = print(50, 1);
    expect(decodeAudio(encodeAudio(values))).toEqual(values);
  });

  it('counts bits', () => {
    expect([0, 1, 0xff, 0x80000000, 0xffffffff, 0x55555555].map(popcount32)).toEqual([0, 1, 8, 1, 32, 16]);
  });

  it('hold too little sound when short, or when one value repeats (silence, a hum)', () => {
    expect(isPrintable(print(MIN_AUDIO_ITEMS - 1, 2))).toBe(false);
    expect(isPrintable(print(MIN_AUDIO_ITEMS, 2))).toBe(true);
    expect(isPrintable(new Uint32Array(200).fill(0x256df977))).toBe(false);
  });

  it('match themselves, re-encoded copies and trimmed copies', () => {
    const original = print(320, 3);
    expect(audioPrintsMatch(original, original)).toBe(true);
    expect(audioPrintsMatch(original, noisy(original, 0.05, 4))).toBe(true);
    expect(audioPrintsMatch(original.slice(60, 250), original)).toBe(true);
    expect(audioPrintsMatch(original, original.slice(60, 250))).toBe(true);
  });

  it('match a copy sped up 1.1x, each window at its own offset', () => {
    const original = print(320, 5);
    const copy = noisy(faster(original, 1.1), 0.05, 6);
    expect(audioPrintsMatch(original, copy)).toBe(true);
    const windows = matchWindows(copy, original);
    // The copy's windows drift later in the original as it goes: 10 % more.
    expect(windows.at(-1)!.offset - windows.at(-1)!.at).toBeGreaterThan(20);
  });

  it('do not match unrelated sound', () => {
    for (const seed of [7, 8, 9]) expect(audioPrintsMatch(print(320, seed), print(320, seed + 100))).toBe(false);
  });

  it('do not match sound whose windows turn up at scattered places (the same samples cut up and reordered)', () => {
    const original = print(320, 10);
    const blocks = Array.from({ length: 10 }, (_, i) => original.slice(i * 32, (i + 1) * 32));
    const reordered = Uint32Array.from([3, 8, 1, 6, 0, 9, 4, 2, 7, 5].flatMap((i) => [...blocks[i]!]));
    expect(audioPrintsMatch(original, reordered)).toBe(false);
  });

  it('give no windows, and no match, when the shorter print is shorter than a window', () => {
    expect(matchWindows(print(AUDIO_WINDOW - 1, 11), print(100, 11))).toEqual([]);
    expect(audioPrintsMatch(print(AUDIO_WINDOW - 1, 11), print(100, 11))).toBe(false);
  });
});

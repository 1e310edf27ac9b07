/**
 * The sound half of a clip's fingerprint: Chromaprint's raw fingerprint, as ffmpeg's `chromaprint` muxer
 * writes it (`-fp_format raw`), and how two of them are matched.
 *
 * Chromaprint (the library behind AcoustID) turns audio into one 32-bit value about every 0.124 s (8 a
 * second): its 32 bits are 16 classifiers, 2 bits each, over the chroma (the energy of the 12 pitch
 * classes) in a short stretch of time. It ignores what a re-encode does (bit rate, codec, sample rate,
 * loudness) and, being built on pitch classes, what `atempo` does to pitch (nothing); what a speed-up does
 * change is time, so a sped-up or trimmed copy no longer lines up with its original at one offset.
 * Matching therefore compares short windows of one print, each at its own best offset in the other.
 */
import { alongOneLine, type Match } from './alignment.js';

/** A value this many times a second (11025 Hz, a 4096-sample frame with 2/3 overlap). */
export const AUDIO_ITEMS_PER_SECOND = 11025 / (4096 / 3);

/**
 * Fewer values than this are too little to print: the fingerprint's audio is null. 20 values are 2.5 s of print,
 * about 5 s of sound (Chromaprint's filters take the first 2.6 s of any sound to fill).
 */
export const MIN_AUDIO_ITEMS = 20;

/**
 * A window of this many values (about 2 s) is matched at one offset. Short enough that a copy sped up 1.1x
 * drifts by under one value between the window's middle and its ends; long enough (512 bits) that the best of
 * a few hundred offsets into an unrelated print still leaves a high bit error rate.
 */
export const AUDIO_WINDOW = 16;
/** Windows start this many values apart (half a window: a trim never leaves a copy without whole windows). */
export const AUDIO_WINDOW_STEP = 8;
/**
 * A window matches when its best offset leaves at most this share of its bits different. Measured on generated
 * clips: copies 0–0.04 (re-encoded, scaled, trimmed), 0.06–0.14 (sped up 1.1x); unrelated sound 0.39 at the
 * median of its best offsets, 0.19 at the lowest of thousands.
 */
export const AUDIO_WINDOW_MAX_BER = 0.2;
/** Matching windows must lie along one line ({@link alongOneLine}) whose rate is within this of 1: a speed change of up to 15 %. */
export const AUDIO_MAX_DRIFT = 0.15;
/** …within this many values either way: a window's best offset lands where its middle matches, a value or two off its start. */
export const AUDIO_LINE_TOLERANCE = 3;
/** The sound matches when at least this many windows (all of a shorter print with fewer), and at least AUDIO_MIN_SHARE of the shorter print's windows, match along one line of offsets. */
export const AUDIO_MIN_WINDOWS = 3;
export const AUDIO_MIN_SHARE = 0.5;

/** The values of a raw fingerprint from its base64 form (little-endian uint32). */
export function decodeAudio(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Uint32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < out.length; i += 1) out[i] = bytes.readUInt32LE(i * 4);
  return out;
}

/** The base64 form of raw fingerprint values (little-endian uint32, whatever the machine's order). */
export function encodeAudio(values: ArrayLike<number>): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i += 1) bytes.writeUInt32LE(values[i]! >>> 0, i * 4);
  return bytes.toString('base64');
}

/** Set bits in a 32-bit value. */
export function popcount32(x: number): number {
  let v = x >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Whether a raw print has enough sound in it: at least MIN_AUDIO_ITEMS values, and not the same few values
 * over and over (silence, or a constant hum, prints as one value repeated: it would match every other
 * silent clip). The share of distinct values must be at least a quarter.
 */
export function isPrintable(values: Uint32Array): boolean {
  if (values.length < MIN_AUDIO_ITEMS) return false;
  return new Set(values).size >= values.length / 4;
}

/** A window of the shorter print at its best offset in the longer one. */
export interface WindowMatch extends Match {
  ber: number;
}

/** Each window of `short` at its best offset in `long`: the lowest bit error rate over every offset. */
export function matchWindows(short: Uint32Array, long: Uint32Array): WindowMatch[] {
  const matches: WindowMatch[] = [];
  for (let at = 0; at + AUDIO_WINDOW <= short.length; at += AUDIO_WINDOW_STEP) {
    let best = Infinity;
    let bestOffset = 0;
    for (let offset = 0; offset + AUDIO_WINDOW <= long.length; offset += 1) {
      let errors = 0;
      for (let i = 0; i < AUDIO_WINDOW && errors < best; i += 1) errors += popcount32(short[at + i]! ^ long[offset + i]!);
      if (errors < best) {
        best = errors;
        bestOffset = offset;
      }
    }
    if (best !== Infinity) matches.push({ at, offset: bestOffset, ber: best / (AUDIO_WINDOW * 32) });
  }
  return matches;
}

/**
 * Whether two raw prints are of the same sound: the windows of the shorter one (a trimmed or sped-up copy
 * is the shorter) matched in the longer, and enough of them (AUDIO_MIN_WINDOWS, and AUDIO_MIN_SHARE of all)
 * along one line of offsets ({@link alongOneLine}).
 */
export function audioPrintsMatch(a: Uint32Array, b: Uint32Array): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const windows = matchWindows(short, long);
  if (windows.length === 0) return false;
  const needed = Math.max(Math.min(AUDIO_MIN_WINDOWS, windows.length), Math.ceil(AUDIO_MIN_SHARE * windows.length));
  const good = windows.filter((w) => w.ber <= AUDIO_WINDOW_MAX_BER);
  return good.length >= needed && alongOneLine(good, AUDIO_MAX_DRIFT, AUDIO_LINE_TOLERANCE).length >= needed;
}

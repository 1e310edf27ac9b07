import { describe, expect, it } from '@jest/globals';
import { encodeAudio, MIN_AUDIO_ITEMS } from './audio-match.js';
import { ZOOMS } from './frame-hash.js';
import { MAX_FRAME_HASHES, parseFingerprint } from './parse.js';

const frames = Array.from({ length: ZOOMS.length * 2 }, (_, i) => `00000000000000${i.toString(16).padStart(2, '0')}`);
const audio = encodeAudio(Array.from({ length: MIN_AUDIO_ITEMS }, (_, i) => i * 7919));
const valid = { version: 1, frames, audio };

describe('parseFingerprint', () => {
  it('accepts a fingerprint, with or without sound, and drops other fields (a row id, a timestamp)', () => {
    expect(parseFingerprint(valid)).toEqual(valid);
    expect(parseFingerprint({ ...valid, audio: null })).toEqual({ ...valid, audio: null });
    expect(parseFingerprint({ ...valid, frames: [] })).toEqual({ ...valid, frames: [] });
    expect(parseFingerprint({ ...valid, clipId: 42, createdAt: '2026-11-29' })).toEqual(valid);
  });

  it('returns a fingerprint of its own, not the value given', () => {
    const parsed = parseFingerprint(valid);
    expect(parsed).not.toBe(valid);
    expect(parsed.frames).not.toBe(valid.frames);
  });

  it.each([
    ['not an object', 'fingerprint'],
    ['null', null],
    ['another version', { ...valid, version: 2 }],
    ['no version', { frames, audio }],
    ['frames not an array', { ...valid, frames: 'abc' }],
    ['upper-case hex', { ...valid, frames: frames.map((h) => h.toUpperCase().replace(/^0/, 'A')) }],
    ['a short hash', { ...valid, frames: [...frames.slice(1), '123'] }],
    ['a hash that is not a string', { ...valid, frames: [...frames.slice(1), 12] }],
    ['frames not in groups of one per view', { ...valid, frames: frames.slice(1) }],
    ['too many frames', { ...valid, frames: Array.from({ length: MAX_FRAME_HASHES + ZOOMS.length }, () => frames[0]) }],
    ['audio missing', { version: 1, frames }],
    ['audio not base64', { ...valid, audio: 'not base64!' }],
    ['audio not whole 32-bit values', { ...valid, audio: Buffer.alloc(MIN_AUDIO_ITEMS * 4 + 2).toString('base64') }],
    ['audio too short to be a print', { ...valid, audio: encodeAudio([1, 2, 3]) }],
    ['audio empty', { ...valid, audio: '' }],
    ['audio too long', { ...valid, audio: 'AAAA'.repeat(3000) }],
  ])('refuses %s', (_, value) => {
    expect(() => parseFingerprint(value)).toThrow(TypeError);
    expect(() => parseFingerprint(value)).toThrow(/^not a clip fingerprint/);
  });

  it('says where the value is wrong', () => {
    expect(() => parseFingerprint({ ...valid, frames: [...frames.slice(1), 'xyz'] })).toThrow(
      /frames\.\d+: a frame hash is 16 lowercase hex digits/,
    );
  });
});

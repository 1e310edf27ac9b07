import { describe, expect, it } from '@jest/globals';
import { sniffImage } from './image.js';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffImage', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg', 'jpg'],
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13]), 'image/png', 'png'],
    ['gif87a', bytes('GIF87a', [1, 0]), 'image/gif', 'gif'],
    ['gif89a', bytes('GIF89a', [1, 0]), 'image/gif', 'gif'],
    ['webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp', 'webp'],
  ])('recognises %s by its first bytes', (_name, data, mime, ext) => {
    expect(sniffImage(data)).toMatchObject({ mime, ext });
  });

  it.each([
    ['empty', new Uint8Array()],
    ['text', bytes('hello world, I am a png')],
    ['pdf', bytes('%PDF-1.7')],
    ['svg (scriptable, refused)', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['truncated png', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['riff that is not webp', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['mp4', bytes([0, 0, 0, 0x18], 'ftypmp42')],
  ])('refuses %s', (_name, data) => {
    expect(sniffImage(data)).toBeUndefined();
  });
});

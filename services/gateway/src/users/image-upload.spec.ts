import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { ByteLimit } from '../submissions/video-upload.js';
import { gatewayImageUploadUrl, imageContentTypeProblem, ImageSniff } from './image-upload.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

/** Runs chunks through the checks as the upload URL does, answering what reached storage or the failure. */
async function stream(chunks: Buffer[], maxBytes: number, kind: 'profile' | 'banner' = 'banner'): Promise<Buffer | Error> {
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk);
      cb();
    },
  });
  try {
    await pipeline(Readable.from(chunks), new ByteLimit(maxBytes, `too large for ${kind}`), new ImageSniff(kind), sink);
    return Buffer.concat(out);
  } catch (err) {
    return Object.assign(err as Error, { written: Buffer.concat(out).length });
  }
}

describe('the image upload URL’s checks while the bytes stream', () => {
  it('lets an image through whole, however it is split', async () => {
    const chunks = [...PNG].map((b) => Buffer.from([b]));
    expect(await stream(chunks, 100)).toEqual(PNG);
    expect(await stream([PNG], PNG.length)).toEqual(PNG);
  });

  it('refuses bytes that are no image before any of them is written', async () => {
    const err = await stream([Buffer.from('<html><script>alert(1)</script></html>')], 1000);
    expect(err).toBeInstanceOf(BadRequestException);
    expect(err).toMatchObject({ message: 'Banner image must be an image file', written: 0 });
    // Fewer bytes than a signature: still judged, at the end.
    expect(await stream([Buffer.from([0x89, 0x50])], 1000, 'profile')).toMatchObject({ message: 'Profile picture must be an image file' });
    expect(await stream([], 1000)).toBeInstanceOf(BadRequestException);
  });

  it('cuts the upload off past the limit with the kind’s words', async () => {
    const err = await stream([PNG, Buffer.alloc(100)], 50);
    expect(err).toBeInstanceOf(PayloadTooLargeException);
    expect((err as Error).message).toBe('too large for banner');
  });
});

describe('image upload rules at the gateway', () => {
  it('accepts the four image types only, in the kind’s words', () => {
    expect(imageContentTypeProblem('profile', 'image/png')).toBeUndefined();
    expect(imageContentTypeProblem('banner', 'IMAGE/JPEG; q=1')).toBeUndefined();
    expect(imageContentTypeProblem('banner', 'image/svg+xml')).toBe('Banner image must be a PNG, JPEG, GIF or WebP image');
    expect(imageContentTypeProblem('profile', 'application/json')).toBe('Profile picture must be an image file');
    expect(imageContentTypeProblem('profile', undefined)).toBe('Profile picture must be an image file');
  });

  it('puts the upload id and its token in the upload URL, encoded', () => {
    expect(gatewayImageUploadUrl('abc', 'a+b/c')).toBe('/api/user/image-uploads/abc?token=a%2Bb%2Fc');
  });
});

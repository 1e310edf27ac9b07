import { describe, expect, it } from '@jest/globals';
import type { IncomingMultipartFile } from '@nestjs/platform-fastify/multipart';
import { PassThrough } from 'node:stream';
import { pictureStorage, sniffImageType, verifyPicture } from './profile-picture.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a464946', 'hex');

/** Simulates busboy's file stream: chunks, then 'limit' + truncated when it passed the size limit. */
function incoming(chunks: Buffer[], limitAt?: number): IncomingMultipartFile {
  const stream = new PassThrough() as PassThrough & { truncated?: boolean };
  const file = {
    fieldname: 'profilePicture',
    originalname: 'a.png',
    encoding: '7bit',
    mimetype: 'image/png',
    stream,
  } as IncomingMultipartFile;
  setImmediate(() => {
    let sent = 0;
    for (const chunk of chunks) {
      if (limitAt !== undefined && sent + chunk.length > limitAt) {
        stream.write(chunk.subarray(0, limitAt - sent));
        stream.truncated = true;
        stream.emit('limit');
        break;
      }
      stream.write(chunk);
      sent += chunk.length;
    }
    stream.end();
  });
  return file;
}

function store(file: IncomingMultipartFile, max: number): Promise<{ err: unknown; info?: { buffer?: Buffer; size?: number } }> {
  return new Promise((resolve) => pictureStorage(max)._handleFile({}, file, (err, info) => resolve({ err, info })));
}

describe('profile picture', () => {
  it('recognises PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('refuses bytes that are not an image whatever the declared type', () => {
    expect(() => verifyPicture(Buffer.from('<html><script>alert(1)</script>'))).toThrow('Profile picture must be an image file');
    expect(verifyPicture(PNG)).toBe('image/png');
  });

  it('buffers a picture within the limit', async () => {
    const { err, info } = await store(incoming([PNG, Buffer.alloc(100)]), 1000);
    expect(err).toBeNull();
    expect(info?.size).toBe(PNG.length + 100);
    expect(info?.buffer?.subarray(0, 8)).toEqual(PNG.subarray(0, 8));
  });

  it('refuses bytes that are not an image as the form is read, before the route (and its limit) sees the sign-up', async () => {
    const { err } = await store(incoming([Buffer.from('<html><script>alert(1)</script>')]), 1000);
    expect(err).toMatchObject({ message: 'Profile picture must be an image file' });
    expect((err as { getStatus(): number }).getStatus()).toBe(400);
  });

  it('fails with 413 and the limit in words as soon as the part passes the limit', async () => {
    const { err } = await store(incoming([PNG, Buffer.alloc(6 * 1024 * 1024)], 5 * 1024 * 1024), 5 * 1024 * 1024);
    expect(err).toMatchObject({ message: 'Profile picture must be 5 MB or smaller' });
    expect((err as { getStatus(): number }).getStatus()).toBe(413);
  });
});

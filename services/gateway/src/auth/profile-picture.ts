import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { IncomingMultipartFile, MultipartOptions, MultipartStorageEngine } from '@nestjs/platform-fastify/multipart';
import { PICTURE_NOT_IMAGE, PICTURE_UNSUPPORTED_IMAGE, pictureTooLarge } from '../http/messages.js';

export const PROFILE_PICTURE_FIELD = 'profilePicture';

/** The image types a profile picture may be; no SVG (script) and nothing browsers cannot show. */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];

/** The type the bytes say they are (magic numbers), whatever the client declared. */
export function sniffImageType(bytes: Buffer): PictureType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** Checks a received picture's bytes and answers the type to store it under. */
export function verifyPicture(bytes: Buffer): PictureType {
  const type = sniffImageType(bytes);
  if (!type) throw new BadRequestException(PICTURE_NOT_IMAGE);
  return type;
}

/**
 * Buffers the picture in memory and stops at the limit while it streams: the moment the part passes
 * `maxBytes` the request fails with 413 and the rest of the body is discarded unread into memory.
 */
export function pictureStorage(maxBytes: number): MultipartStorageEngine {
  return {
    _handleFile(_req, file, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      let finished = false;
      const finish = (err: unknown, info?: { buffer: Buffer; size: number }) => {
        if (finished) return;
        finished = true;
        file.stream.off('data', onData);
        callback(err ?? null, info);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      };
      file.stream.on('data', onData);
      // busboy emits 'limit' once the part is longer than `limits.fileSize` (then truncates it).
      file.stream.once('limit', () => {
        chunks.length = 0;
        file.stream.resume();
        finish(new PayloadTooLargeException(pictureTooLarge(maxBytes)));
      });
      file.stream.once('error', (err) => finish(err));
      file.stream.once('end', () => {
        if ((file.stream as { truncated?: boolean }).truncated || size > maxBytes) {
          finish(new PayloadTooLargeException(pictureTooLarge(maxBytes)));
          return;
        }
        const buffer = Buffer.concat(chunks, size);
        // The bytes, whatever type was declared: refused here, as the form is read, so a sign-up with
        // something else than a picture is not counted against the sign-up limit either.
        if (size > 0 && !sniffImageType(buffer)) finish(new BadRequestException(PICTURE_NOT_IMAGE));
        else finish(null, { buffer, size });
      });
    },
    _removeFile(_req, file, callback) {
      delete (file as { buffer?: Buffer }).buffer;
      callback(null);
    },
  };
}

/** Refuses a part whose declared type is not an image before a byte of it is read. */
function pictureFilter(_req: unknown, file: IncomingMultipartFile, callback: (error: Error | null, accept: boolean) => void): void {
  const type = file.mimetype.toLowerCase();
  if (!type.startsWith('image/')) return callback(new BadRequestException(PICTURE_NOT_IMAGE), false);
  if (!(PICTURE_TYPES as readonly string[]).includes(type)) return callback(new BadRequestException(PICTURE_UNSUPPORTED_IMAGE), false);
  callback(null, true);
}

/** Options for the sign-up form's multipart parsing: one picture, a handful of short text fields. */
export function signupMultipartOptions(maxPictureBytes: number): MultipartOptions {
  return {
    storage: pictureStorage(maxPictureBytes),
    fileFilter: pictureFilter,
    limits: {
      fileSize: maxPictureBytes,
      files: 1,
      fields: 20,
      fieldSize: 8 * 1024,
      fieldNameSize: 100,
      parts: 25,
      headerPairs: 50,
    },
  };
}

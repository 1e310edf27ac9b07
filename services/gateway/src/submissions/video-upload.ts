import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { isVideoContentType, VIDEO_LIMITS, VIDEO_MESSAGES } from '@clipit/field-rules';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { IncomingMultipartFile, MultipartOptions, MultipartStorageEngine } from '@nestjs/platform-fastify/multipart';

export const VIDEO_FIELD = 'video';

/**
 * Passes bytes through until more than `maxBytes` have gone by, then fails with 413 and the given
 * text (the spec's 'File Too Large' for videos): whatever writes the stream's output (a file, an S3
 * upload) aborts and keeps nothing, and the rest of the request is not read.
 */
export class ByteLimit extends Transform {
  private seen = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: string = VIDEO_MESSAGES.tooLarge,
  ) {
    super();
  }

  get bytes(): number {
    return this.seen;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      callback(new PayloadTooLargeException(this.tooLarge));
      return;
    }
    callback(null, chunk);
  }
}

/**
 * The `video` part of a multipart upload goes to a temporary file as it arrives, cut off at the size
 * limit (413, the partial file removed). A temporary file rather than storage directly: the part may
 * come before the submissionId field that says where it belongs.
 */
export function videoFileStorage(maxBytes: number): MultipartStorageEngine {
  return {
    _handleFile(_req, file, callback) {
      // The OS temp folder (TMPDIR): a volume with room for a few 150 MB files in a container.
      const path = join(tmpdir(), `clipit-upload-${randomUUID()}`);
      const limit = new ByteLimit(maxBytes);
      // busboy truncates a part at `limits.fileSize` and emits 'limit': the same verdict as ByteLimit.
      file.stream.once('limit', () => limit.destroy(new PayloadTooLargeException(VIDEO_MESSAGES.tooLarge)));
      pipeline(file.stream, limit, createWriteStream(path)).then(
        () => callback(null, { path, size: limit.bytes }),
        async (err: unknown) => {
          file.stream.resume();
          await rm(path, { force: true });
          callback(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
    _removeFile(_req, file, callback) {
      if (!file.path) return callback(null);
      rm(file.path, { force: true }).then(
        () => callback(null),
        (err: unknown) => callback(err as Error),
      );
    },
  };
}

/** Refuses a part that is not a video before a byte of it is stored. */
function videoFilter(_req: unknown, file: IncomingMultipartFile, callback: (error: Error | null, accept: boolean) => void): void {
  if (!isVideoContentType(file.mimetype)) return callback(new BadRequestException(VIDEO_MESSAGES.invalidType), false);
  callback(null, true);
}

/** POST /api/submissions/upload-video: one video of at most `maxBytes`, a few short fields. */
export function videoMultipartOptions(maxBytes: number = VIDEO_LIMITS.maxBytes): MultipartOptions {
  return {
    storage: videoFileStorage(maxBytes),
    fileFilter: videoFilter,
    limits: {
      // One byte over, so busboy's own cut-off never hides an exact-size file; ByteLimit decides.
      fileSize: maxBytes + 1,
      files: 1,
      fields: 5,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: 6,
      headerPairs: 20,
    },
  };
}

import { isPublishedMediaKey } from '@clipit/contracts';
import { assertSafeKey, InvalidKeyError, STORAGE, type StorageDriver } from '@clipit/storage';
import { HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { HttpErrorWithHeaders } from '../http/http-errors.js';
import { NOT_FOUND, RANGE_NOT_SATISFIABLE } from '../http/messages.js';
import { isNotModified, parseRange, rangeStillValid } from './range.js';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export interface MediaRequestHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface MediaAnswer {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body?: Readable;
}

// Keys are random names that never change content, so caches may keep them for a year untouched.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Stored objects are shown, never run: even a mislabelled upload cannot script our origin.
const MEDIA_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** 416, with the object's size so the client can ask again. */
class RangeNotSatisfiableError extends HttpErrorWithHeaders {
  constructor(size: number) {
    super(RANGE_NOT_SATISFIABLE, HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, { 'Content-Range': `bytes */${size}` });
  }
}

/**
 * Serves published objects (the allow-list of key prefixes in @clipit/contracts) with validators,
 * conditional answers and single byte ranges. Anything else, raw uploads above all, is 404 as if absent.
 */
@Injectable()
export class MediaService {
  constructor(@Inject(STORAGE) private readonly storage: StorageDriver) {}

  /** GET/HEAD /media/*: the object under the path's key, as `serve` answers it. */
  async send(req: FastifyRequest<{ Params: Record<string, string | undefined> }>, reply: FastifyReply): Promise<void> {
    const answer = await this.serve(
      req.params['*'] ?? '',
      {
        range: header(req.headers.range),
        ifRange: header(req.headers['if-range']),
        ifNoneMatch: header(req.headers['if-none-match']),
        ifModifiedSince: header(req.headers['if-modified-since']),
      },
      req.method !== 'HEAD',
    );
    // HEAD: an empty stream keeps our Content-Length (Fastify zeroes it for an absent body).
    await reply
      .status(answer.status)
      .headers(answer.headers)
      .send(answer.body ?? (req.method === 'HEAD' && answer.status !== 304 ? Readable.from([]) : undefined));
  }

  async serve(key: string, req: MediaRequestHeaders, withBody: boolean): Promise<MediaAnswer> {
    // Checked before storage is asked, so an unpublished object's existence is not revealed either.
    if (!isPublishedMediaKey(key)) throw new NotFoundException(NOT_FOUND);
    let info;
    try {
      assertSafeKey(key);
      info = await this.storage.stat(key);
    } catch (err) {
      // Not a key (traversal, odd bytes, a driver's reserved names): nothing is stored there.
      if (err instanceof InvalidKeyError) throw new NotFoundException(NOT_FOUND);
      throw err;
    }
    if (!info) throw new NotFoundException(NOT_FOUND);

    const validators = { etag: info.etag, lastModified: info.lastModified };
    const headers: Record<string, string> = {
      'Cache-Control': IMMUTABLE,
      ETag: info.etag,
      'Last-Modified': info.lastModified.toUTCString(),
      'Accept-Ranges': 'bytes',
      'Content-Security-Policy': MEDIA_CSP,
    };
    if (isNotModified(req, validators)) return { status: 304, headers };

    headers['Content-Type'] = info.contentType;
    const range = rangeStillValid(req.ifRange, validators) ? parseRange(req.range, info.size) : { kind: 'whole' as const };
    if (range.kind === 'unsatisfiable') throw new RangeNotSatisfiableError(info.size);
    if (range.kind === 'partial') {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${info.size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
      return { status: 206, headers, ...(withBody ? { body: await this.storage.read(key, { start: range.start, end: range.end }) } : {}) };
    }
    headers['Content-Length'] = String(info.size);
    return { status: 200, headers, ...(withBody && info.size > 0 ? { body: await this.storage.read(key) } : {}) };
  }
}

import { Client, S3Error } from 'minio';
import { createReadStream, createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseS3Endpoint } from './s3-endpoint.js';
import { assertSafeKey, type ObjectInfo, type ReadRange, type StorageDriver, type StoredObject } from './storage.js';
import { byteWindow, readHead } from './streams.js';

export interface S3StorageOptions {
  /** The S3 API's URL: scheme, host and optional port, no path (`http://minio:9000`). */
  endPoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** Region named in request signatures; MinIO's default is us-east-1. */
  region: string;
  /**
   * The store's URL as browsers reach it, when that differs from `endPoint` (compose: the services say
   * http://minio:9000, a browser http://localhost:9000). Presigned URLs are signed for this host, since
   * the host is part of the signature. Default: `endPoint`.
   */
  publicEndPoint?: string | undefined;
}

/**
 * Part size of multipart uploads, and the most a put holds in memory. A stream body no longer than this
 * is sent in one request with its size; a longer one goes up in parts of this size (up to 10,000 of
 * them, so objects up to about 160 GiB).
 */
const PART_SIZE = 16 * 1024 * 1024;
/** The reads and writes of local files (download, upload): a MB each. */
const FILE_CHUNK = 1024 * 1024;
/** Presigned URLs live at most a week (the SigV4 limit). */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** True when `err` is an S3 error answer carrying one of `codes`. */
function isS3Code(err: unknown, ...codes: string[]): boolean {
  return err instanceof S3Error && err.code !== undefined && codes.includes(err.code);
}

/**
 * The client accepts a 200 (the server ignored the Range header: the whole object) as well as a 206
 * for a ranged GET, and some servers answer `bytes=0-0` with more than one byte (s3rver does). Callers
 * are promised exactly the bytes asked for (the gateway has already sent Content-Length), so make it so.
 */
function exactRange(body: Readable, start: number, length: number): Readable {
  const { statusCode, headers } = body as Partial<IncomingMessage>;
  if (statusCode === 200) return byteWindow(body, start, length);
  const match = /^bytes (\d+)-(\d+)\/(?:\d+|\*)$/.exec(headers?.['content-range'] ?? '');
  if (!match) return byteWindow(body, 0, length);
  const [from, to] = [Number(match[1]), Number(match[2])];
  if (from !== start) {
    body.destroy();
    throw new Error(`the S3 server answered bytes ${from}-${to} when asked for bytes ${start}-${start + length - 1}`);
  }
  // A range reaching past the end is cut short by the server; only a longer answer needs trimming.
  return to - from + 1 > length ? byteWindow(body, 0, length) : body;
}

/**
 * Objects in one bucket of an S3-compatible store (MinIO in compose and Kubernetes), through the
 * `minio` client. Requests use path-style addressing and SigV4 signatures.
 */
export class S3StorageDriver implements StorageDriver {
  readonly name = 's3';
  readonly bucket: string;
  private readonly region: string;
  private readonly client: Client;
  /** Signs presigned URLs for the public endpoint; never sends a request (the region is known). */
  private readonly presigner: Client;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.region = options.region;
    const settings = (endPoint: string) => ({
      ...parseS3Endpoint(endPoint),
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: true,
      partSize: PART_SIZE,
    });
    this.client = new Client(settings(options.endPoint));
    this.presigner = options.publicEndPoint ? new Client(settings(options.publicEndPoint)) : this.client;
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    const metadata = { 'Content-Type': contentType };
    if (Buffer.isBuffer(body)) {
      await this.client.putObject(this.bucket, key, body, body.length, metadata);
      return { key, size: body.length, contentType };
    }
    // The client sends every stream of unknown size as a multipart upload, which costs several requests
    // (and which some S3 servers lack): read the head first and send a short body in one request.
    const head = await readHead(body, PART_SIZE);
    if (head.complete) {
      await this.client.putObject(this.bucket, key, head.data, head.data.length, metadata);
      return { key, size: head.data.length, contentType };
    }
    // The client pipes the stream into its part splitter without watching the stream's errors, so a
    // failing source would leave the upload waiting forever: fail as soon as the source does.
    const { stream, bytesRead } = head;
    let onError: (err: Error) => void = () => undefined;
    const sourceFailed = new Promise<never>((_resolve, reject) => {
      onError = reject;
      stream.once('error', onError);
    });
    try {
      await Promise.race([this.client.putObject(this.bucket, key, stream, undefined, metadata), sourceFailed]);
    } catch (err) {
      stream.destroy();
      throw err;
    } finally {
      stream.off('error', onError);
    }
    return { key, size: bytesRead(), contentType };
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    assertSafeKey(key);
    try {
      const s = await this.client.statObject(this.bucket, key);
      const contentType = Object.entries(s.metaData as Record<string, unknown>).find(
        ([name]) => name.toLowerCase() === 'content-type',
      )?.[1];
      return {
        key,
        size: s.size,
        contentType: typeof contentType === 'string' && contentType !== '' ? contentType : DEFAULT_CONTENT_TYPE,
        lastModified: s.lastModified,
        // The client strips the quotes; ObjectInfo carries an HTTP entity tag, as the fs driver does.
        etag: `"${s.etag}"`,
      };
    } catch (err) {
      // A HEAD answer has no body, so a missing object usually comes back as NotFound.
      if (isS3Code(err, 'NotFound', 'NoSuchKey')) return undefined;
      throw err;
    }
  }

  async read(key: string, range?: ReadRange): Promise<Readable> {
    assertSafeKey(key);
    if (!range) return this.client.getObject(this.bucket, key);
    const { start, end } = range;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
      throw new RangeError(`invalid byte range ${start}-${end}`);
    }
    const length = end - start + 1;
    const body = await this.client.getPartialObject(this.bucket, key, start, length);
    return exactRange(body, start, length);
  }

  async download(key: string, file: string, signal?: AbortSignal): Promise<void> {
    // A MB a write: the default 16 KB would be a thousand writes for a 16 MB video.
    assertSafeKey(key);
    await pipeline(await this.read(key), createWriteStream(file, { highWaterMark: FILE_CHUNK }), { signal });
  }

  async upload(key: string, file: string, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    // put's way (one request up to a part, parts past it), read a MB at a time.
    return this.put(key, createReadStream(file, { highWaterMark: FILE_CHUNK }), contentType);
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (err) {
      if (isS3Code(err, 'NotFound', 'NoSuchKey')) return;
      throw err;
    }
  }

  /**
   * A URL that lets whoever holds it PUT the object at `key` (any content type) until it expires,
   * without credentials: for uploads that go straight from a browser to the store.
   */
  async presignedPutUrl(key: string, expirySeconds: number): Promise<string> {
    assertSafeKey(key);
    if (!Number.isInteger(expirySeconds) || expirySeconds < 1 || expirySeconds > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`expirySeconds must be a whole number from 1 to ${MAX_PRESIGN_SECONDS}, got ${expirySeconds}`);
    }
    return this.presigner.presignedPutObject(this.bucket, key, expirySeconds);
  }

  /** Creates the bucket when it does not exist yet (at boot); true when it was created. */
  async ensureBucket(): Promise<boolean> {
    if (await this.client.bucketExists(this.bucket)) return false;
    try {
      await this.client.makeBucket(this.bucket, this.region);
      return true;
    } catch (err) {
      // Another instance booting at the same moment made it first. Stores name that race differently
      // (MinIO BucketAlreadyOwnedByYou, others BucketAlreadyExists), so the bucket itself is asked again.
      if (isS3Code(err, 'BucketAlreadyOwnedByYou')) return false;
      if (await this.client.bucketExists(this.bucket).catch(() => false)) return false;
      throw err;
    }
  }
}

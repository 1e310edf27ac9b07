import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
}

export interface ObjectInfo extends StoredObject {
  lastModified: Date;
  etag: string;
}

export interface ReadRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * Object storage as every service sees it. Keys are `/`-separated paths of safe characters
 * (`profile-images/<uuid>.jpg`); drivers: the local filesystem (default) and S3/MinIO.
 */
export interface StorageDriver {
  readonly name: string;
  put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject>;
  /** Info about an object, or undefined when there is none. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  read(key: string, range?: ReadRange): Promise<Readable>;
  /**
   * Copies the object into the local file `file` (created or replaced), for tools that read files (ffmpeg):
   * the fs driver copies in the kernel, the S3 driver streams the download in large writes. Throws when
   * there is no such object, or when `signal` aborts the copy.
   */
  download(key: string, file: string, signal?: AbortSignal): Promise<void>;
  /** Stores the bytes of the local file `file` at `key`, as put does (the fs driver copies in the kernel). */
  upload(key: string, file: string, contentType: string): Promise<StoredObject>;
  delete(key: string): Promise<void>;
  /**
   * A URL that lets whoever holds it PUT the object at `key` without credentials until it expires, for
   * uploads straight from a browser; only drivers whose store can check such a URL have it (S3).
   */
  presignedPutUrl?(key: string, expirySeconds: number): Promise<string>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Refuses keys that could escape the storage root or confuse a URL (`..`, absolute paths, odd bytes). */
export function assertSafeKey(key: string): void {
  if (!KEY.test(key) || key.length > 512 || key.split('/').some((p) => p === '.' || p === '..')) {
    throw new InvalidKeyError(key);
  }
}

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`invalid storage key: ${JSON.stringify(key).slice(0, 80)}`);
    this.name = 'InvalidKeyError';
  }
}

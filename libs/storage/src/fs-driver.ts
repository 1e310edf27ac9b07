import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, InvalidKeyError, type ObjectInfo, type ReadRange, type StorageDriver, type StoredObject } from './storage.js';

/**
 * Objects as files under one root folder; the content type sits beside each file in `<file>.meta`.
 * Writes go to a temporary file first and are renamed into place, so a reader never sees half a file.
 */
export class FsStorageDriver implements StorageDriver {
  readonly name = 'fs';
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    assertSafeKey(key);
    // `<file>.meta` sidecars and `<file>.<uuid>.tmp` partial writes are this driver's own files: a key
    // naming one would read, overwrite or delete another object's metadata or half-written bytes.
    if (/\.(meta|tmp)$/i.test(key)) throw new InvalidKeyError(key);
    return join(this.root, key);
  }

  put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject> {
    return this.write(key, contentType, (tmp) => (Buffer.isBuffer(body) ? writeFile(tmp, body) : pipeline(body, createWriteStream(tmp))));
  }

  upload(key: string, file: string, contentType: string): Promise<StoredObject> {
    return this.write(key, contentType, (tmp) => copyFile(file, tmp));
  }

  /** Has `fill` write the object's bytes into a temporary file, then puts it in place with its content type. */
  private async write(key: string, contentType: string, fill: (tmp: string) => Promise<void>): Promise<StoredObject> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    try {
      await fill(tmp);
      await writeFile(`${file}.meta`, JSON.stringify({ contentType }));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const { size } = await stat(file);
    return { key, size, contentType };
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    const file = this.path(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return undefined;
      let contentType = 'application/octet-stream';
      try {
        contentType = (JSON.parse(await readFile(`${file}.meta`, 'utf8')) as { contentType: string }).contentType;
      } catch {
        // no sidecar: served as bytes
      }
      const etag = createHash('sha1').update(`${key}:${s.size}:${s.mtimeMs}`).digest('hex').slice(0, 16);
      return { key, size: s.size, contentType, lastModified: s.mtime, etag: `"${etag}"` };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async read(key: string, range?: ReadRange): Promise<Readable> {
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }

  async download(key: string, file: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await copyFile(this.path(key), file);
    signal?.throwIfAborted();
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.meta`, { force: true });
  }
}

export { Readable };

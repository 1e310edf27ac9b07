// The only code of the web feature that touches the filesystem: one built app's folder, read-only.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { ENCODINGS, isCompressible, isPrecompressedSibling, type Encoding } from './web-rules.js';

export interface StaticFile {
  /** Absolute path inside the folder. */
  path: string;
  size: number;
  lastModified: Date;
  /** Size and modification time: a rebuilt file gets a new one. */
  etag: string;
  /** The precompressed siblings the build left for a text asset, newer than the file itself. */
  encoded: Array<{ encoding: Encoding; file: StaticFile }>;
}

export class StaticFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /**
   * The regular file at `relative` (already checked by safeRelativePath), with its precompressed
   * siblings, or undefined. A sibling is not a file of the site by its own name.
   */
  async find(relative: string): Promise<StaticFile | undefined> {
    const path = resolve(this.root, relative);
    if (!path.startsWith(this.root + sep) || isPrecompressedSibling(path)) return undefined;
    const file = await this.stat(path, '');
    if (!file || !isCompressible(path)) return file;
    for (const encoding of ENCODINGS) {
      const sibling = await this.stat(path + encoding.suffix, `-${encoding.name}`);
      // A sibling older than its file was left by an earlier build: never send stale bytes.
      if (sibling && sibling.lastModified >= file.lastModified) file.encoded.push({ encoding, file: sibling });
    }
    return file;
  }

  private async stat(path: string, etagSuffix: string): Promise<StaticFile | undefined> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${etagSuffix}"`;
      return { path, size: info.size, lastModified: info.mtime, etag, encoded: [] };
    } catch {
      return undefined;
    }
  }

  /** The file's bytes, or those from `start` to `end` (inclusive). */
  open(file: StaticFile, range?: { start: number; end: number }): Readable {
    return createReadStream(file.path, range);
  }
}

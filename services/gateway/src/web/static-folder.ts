// The only code of the web feature that touches the filesystem: one built app's folder, read-only.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

export interface StaticFile {
  /** Absolute path inside the folder. */
  path: string;
  size: number;
  lastModified: Date;
  /** Size and modification time: a rebuilt file gets a new one. */
  etag: string;
}

export class StaticFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The regular file at `relative` (already checked by safeRelativePath), or undefined. */
  async find(relative: string): Promise<StaticFile | undefined> {
    const path = resolve(this.root, relative);
    if (!path.startsWith(this.root + sep)) return undefined;
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return { path, size: info.size, lastModified: info.mtime, etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"` };
    } catch {
      return undefined;
    }
  }

  open(file: StaticFile): Readable {
    return createReadStream(file.path);
  }
}

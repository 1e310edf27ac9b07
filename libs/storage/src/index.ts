import { FsStorageDriver } from './fs-driver.js';
import type { StorageDriver } from './storage.js';

export * from './storage.js';
export { FsStorageDriver } from './fs-driver.js';

export interface StorageConfig {
  STORAGE_DRIVER: 'fs' | 's3';
  STORAGE_FS_ROOT: string;
}

/** Picks the driver named by STORAGE_DRIVER. */
export function createStorage(config: StorageConfig): StorageDriver {
  switch (config.STORAGE_DRIVER) {
    case 'fs':
      return new FsStorageDriver(config.STORAGE_FS_ROOT);
    case 's3':
      // The S3/MinIO driver arrives with the media pipeline; refuse clearly rather than fall back silently.
      throw new Error('STORAGE_DRIVER=s3 is not available in this build yet; use STORAGE_DRIVER=fs');
  }
}

export * from './storage.js';
export { FsStorageDriver } from './fs-driver.js';
// The S3 driver as a type only: its module loads the minio client, which createStorage imports for STORAGE_DRIVER=s3 alone.
export type { S3StorageDriver, S3StorageOptions } from './s3-driver.js';
export { parseS3Endpoint } from './s3-endpoint.js';
export {
  createStorage,
  openStorage,
  STORAGE,
  storageConfigShape,
  StorageConfigError,
  storageResource,
  type StorageConfig,
} from './config.js';

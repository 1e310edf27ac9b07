export * from './storage.js';
export { FsStorageDriver } from './fs-driver.js';
export { S3StorageDriver, parseS3Endpoint, type S3StorageOptions } from './s3-driver.js';
export {
  createStorage,
  openStorage,
  STORAGE,
  storageConfigShape,
  StorageConfigError,
  storageResource,
  type StorageConfig,
} from './config.js';

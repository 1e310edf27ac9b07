import { z } from 'zod';
import { FsStorageDriver } from './fs-driver.js';
import type { S3StorageDriver } from './s3-driver.js';
import { parseS3Endpoint } from './s3-endpoint.js';
import type { StorageDriver } from './storage.js';

const S3_DEFAULT_REGION = 'us-east-1';

function isS3Endpoint(value: string): boolean {
  try {
    parseS3Endpoint(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The storage variables, as a fragment to spread into a service's config shape
 * (`{ ...sharedConfigShape, ...storageConfigShape, ... }`). The S3_* credentials and endpoint are
 * optional here because only STORAGE_DRIVER=s3 needs them; {@link createStorage} names any that are missing.
 */
export const storageConfigShape = {
  /** fs: a local folder (one machine); s3: an S3-compatible store such as MinIO. */
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  /** Folder for STORAGE_DRIVER=fs, relative to the working directory. */
  STORAGE_FS_ROOT: z.string().min(1).default('.data/storage'),
  /** The S3 API's URL for STORAGE_DRIVER=s3, e.g. http://minio:9000. */
  S3_ENDPOINT: z.string().refine(isS3Endpoint, 'must be an http(s) URL with no path, such as http://minio:9000').optional(),
  /** The store's URL as browsers reach it, for presigned upload URLs; empty = S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z
    .string()
    .refine((v) => v.trim() === '' || isS3Endpoint(v.trim()), 'must be an http(s) URL with no path, such as http://localhost:9000')
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens')
    .default('clipit-media'),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  /** Region named in request signatures. */
  S3_REGION: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .default(S3_DEFAULT_REGION),
};

/** What {@link createStorage} reads; a config parsed with {@link storageConfigShape} is one. */
export interface StorageConfig {
  STORAGE_DRIVER: 'fs' | 's3';
  STORAGE_FS_ROOT: string;
  S3_ENDPOINT?: string | undefined;
  S3_PUBLIC_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_ACCESS_KEY?: string | undefined;
  S3_SECRET_KEY?: string | undefined;
  S3_REGION?: string | undefined;
}

/** The chosen driver cannot be built from the configuration; `variables` names the culprits. */
export class StorageConfigError extends Error {
  constructor(
    message: string,
    readonly variables: string[],
  ) {
    super(message);
    this.name = 'StorageConfigError';
  }
}

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Picks the driver named by STORAGE_DRIVER; rejects with a StorageConfigError naming what is missing or wrong.
 * The S3 driver's module, and with it the `minio` client (about 10 MB of heap), is loaded only here, for
 * STORAGE_DRIVER=s3: a service on the fs driver never loads it (ADR 0046).
 */
export async function createStorage(config: StorageConfig): Promise<StorageDriver> {
  switch (config.STORAGE_DRIVER) {
    case 'fs':
      return new FsStorageDriver(config.STORAGE_FS_ROOT);
    case 's3': {
      const missing = S3_REQUIRED.filter((name) => !present(config[name]));
      if (missing.length > 0) {
        throw new StorageConfigError(
          `STORAGE_DRIVER=s3 needs ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not set ` +
            '(see deploy/.env.example); set them or use STORAGE_DRIVER=fs',
          [...missing],
        );
      }
      const endPoint = (config.S3_ENDPOINT as string).trim();
      if (!isS3Endpoint(endPoint)) {
        throw new StorageConfigError(
          `S3_ENDPOINT=${JSON.stringify(endPoint)} is invalid: must be an http(s) URL with no path, such as http://minio:9000`,
          ['S3_ENDPOINT'],
        );
      }
      const publicEndPoint = present(config.S3_PUBLIC_ENDPOINT) ? config.S3_PUBLIC_ENDPOINT.trim() : undefined;
      if (publicEndPoint !== undefined && !isS3Endpoint(publicEndPoint)) {
        throw new StorageConfigError(
          `S3_PUBLIC_ENDPOINT=${JSON.stringify(publicEndPoint)} is invalid: must be an http(s) URL with no path, such as http://localhost:9000`,
          ['S3_PUBLIC_ENDPOINT'],
        );
      }
      const { S3StorageDriver } = await import('./s3-driver.js');
      return new S3StorageDriver({
        endPoint,
        bucket: (config.S3_BUCKET as string).trim(),
        accessKey: config.S3_ACCESS_KEY as string,
        secretKey: config.S3_SECRET_KEY as string,
        region: present(config.S3_REGION) ? config.S3_REGION.trim() : S3_DEFAULT_REGION,
        publicEndPoint,
      });
    }
  }
}

/**
 * The driver named by STORAGE_DRIVER, ready to use: on S3 the bucket is created when missing (compose
 * and Kubernetes create it beforehand; this covers a fresh MinIO or S3 all the same).
 */
export async function openStorage(config: StorageConfig): Promise<StorageDriver> {
  const storage = await createStorage(config);
  if (storage.name === 's3') await (storage as S3StorageDriver).ensureBucket();
  return storage;
}

/** The token services inject their storage driver under. */
export const STORAGE = Symbol('STORAGE');

/**
 * Storage as a service-kit resource (`resources: [storageResource]`): opened from the service's
 * configuration at start-up and provided under STORAGE.
 */
export const storageResource = {
  name: 'storage',
  token: STORAGE,
  open: ({ config }: { config: StorageConfig }): Promise<StorageDriver> => openStorage(config),
};

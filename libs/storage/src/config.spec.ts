import { z } from 'zod';
import { createStorage, storageConfigShape, StorageConfigError, type StorageConfig } from './config.js';
import { FsStorageDriver } from './fs-driver.js';
import { S3StorageDriver } from './s3-driver.js';

const s3 = {
  STORAGE_DRIVER: 's3',
  STORAGE_FS_ROOT: '.data/storage',
  S3_ENDPOINT: 'http://minio:9000',
  S3_BUCKET: 'clipit-media',
  S3_ACCESS_KEY: 'clipit-dev',
  S3_SECRET_KEY: 'clipit-dev-secret',
  S3_REGION: 'us-east-1',
} satisfies StorageConfig;

async function storageError(config: StorageConfig): Promise<StorageConfigError> {
  try {
    await createStorage(config);
  } catch (err) {
    if (err instanceof StorageConfigError) return err;
    throw err;
  }
  throw new Error('createStorage accepted the configuration');
}

describe('createStorage', () => {
  it('builds the fs driver without any S3 variable', async () => {
    expect(await createStorage({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: '.data/storage' })).toBeInstanceOf(FsStorageDriver);
  });

  it('builds the S3 driver when every S3 variable is there', async () => {
    const driver = await createStorage(s3);
    expect(driver).toBeInstanceOf(S3StorageDriver);
    expect(driver.name).toBe('s3');
    expect((driver as S3StorageDriver).bucket).toBe('clipit-media');
  });

  it('does without S3_REGION (us-east-1)', async () => {
    expect(await createStorage({ ...s3, S3_REGION: undefined })).toBeInstanceOf(S3StorageDriver);
  });

  it.each(['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const)('names %s when it is missing', async (name) => {
    const err = await storageError({ ...s3, [name]: undefined });
    expect(err.variables).toEqual([name]);
    expect(err.message).toContain(`STORAGE_DRIVER=s3 needs ${name}, which is not set`);
    expect(err.message).toContain('STORAGE_DRIVER=fs');
  });

  it('names every missing variable at once, counting blank ones as missing', async () => {
    const err = await storageError({
      STORAGE_DRIVER: 's3',
      STORAGE_FS_ROOT: '.data/storage',
      S3_BUCKET: 'clipit-media',
      S3_SECRET_KEY: '  ',
    });
    expect(err.variables).toEqual(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']);
    expect(err.message).toMatch(/^STORAGE_DRIVER=s3 needs S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, which are not set/);
  });

  it.each(['minio:9000', 'ftp://minio:9000', 'http://minio:9000/bucket', 'http://key:secret@minio:9000', 'not a url'])(
    'refuses S3_ENDPOINT=%s, naming it',
    async (endpoint) => {
      const err = await storageError({ ...s3, S3_ENDPOINT: endpoint });
      expect(err.variables).toEqual(['S3_ENDPOINT']);
      expect(err.message).toContain(`S3_ENDPOINT=${JSON.stringify(endpoint)} is invalid`);
    },
  );

  it('refuses an S3_PUBLIC_ENDPOINT that is not an endpoint URL, and takes an empty one as unset', async () => {
    const err = await storageError({ ...s3, S3_PUBLIC_ENDPOINT: 'localhost:9000' });
    expect(err.variables).toEqual(['S3_PUBLIC_ENDPOINT']);
    expect(err.message).toContain('S3_PUBLIC_ENDPOINT="localhost:9000" is invalid');
    expect(await createStorage({ ...s3, S3_PUBLIC_ENDPOINT: ' ' })).toBeInstanceOf(S3StorageDriver);
    expect(await createStorage({ ...s3, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' })).toBeInstanceOf(S3StorageDriver);
  });

  it('accepts https endpoints, with or without a port or a trailing slash', async () => {
    for (const endpoint of ['https://s3.example.com', 'https://s3.example.com:8443/', 'http://127.0.0.1:9000', 'http://[::1]:9000']) {
      expect(await createStorage({ ...s3, S3_ENDPOINT: endpoint })).toBeInstanceOf(S3StorageDriver);
    }
  });
});

describe('storageConfigShape', () => {
  const schema = z.object(storageConfigShape);

  it('defaults to the fs driver under .data/storage, and builds it', async () => {
    const config = schema.parse({});
    expect(config).toEqual({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: '.data/storage', S3_BUCKET: 'clipit-media', S3_REGION: 'us-east-1' });
    expect(await createStorage(config)).toBeInstanceOf(FsStorageDriver);
  });

  it('reads the compose settings into a config createStorage builds the S3 driver from', async () => {
    const config = schema.parse({ ...s3, STORAGE_FS_ROOT: undefined, S3_REGION: undefined });
    expect(config).toMatchObject({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'us-east-1' });
    expect(await createStorage(config)).toBeInstanceOf(S3StorageDriver);
  });

  it.each([
    ['STORAGE_DRIVER', 'minio'],
    ['STORAGE_FS_ROOT', ''],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_ENDPOINT', 'http://minio:9000/clipit-media'],
    ['S3_PUBLIC_ENDPOINT', 'https://cdn.example.com/media'],
    ['S3_BUCKET', 'Clipit_Media'],
    ['S3_BUCKET', 'ab'],
    ['S3_ACCESS_KEY', ''],
    ['S3_REGION', 'us east'],
  ])('refuses %s=%j', (name, value) => {
    const result = schema.safeParse({ [name]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([name]);
  });
});

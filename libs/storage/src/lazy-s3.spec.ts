import { jest } from '@jest/globals';

// The minio client costs about 10 MB of heap in every process that loads it (ADR 0046): the package's entry
// point and the fs driver must not load it; only building the S3 driver does.

let minioLoads = 0;
class StandInClient {}
jest.unstable_mockModule('minio', () => {
  minioLoads += 1;
  return { Client: StandInClient, S3Error: class extends Error {} };
});

const storage = await import('./index.js');

describe('the minio client', () => {
  it('is not loaded by the package, nor by the fs driver', async () => {
    const driver = await storage.createStorage({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: '.data/storage' });
    expect(driver.name).toBe('fs');
    await expect(storage.createStorage({ STORAGE_DRIVER: 's3', STORAGE_FS_ROOT: '.data/storage' })).rejects.toThrow(
      storage.StorageConfigError,
    );
    expect(storage.parseS3Endpoint('http://minio:9000')).toEqual({ endPoint: 'minio', port: 9000, useSSL: false });
    expect(minioLoads).toBe(0);
  });

  it('is loaded when STORAGE_DRIVER=s3 builds its driver', async () => {
    const driver = await storage.createStorage({
      STORAGE_DRIVER: 's3',
      STORAGE_FS_ROOT: '.data/storage',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'clipit-media',
      S3_ACCESS_KEY: 'ak',
      S3_SECRET_KEY: 'sk',
    });
    expect(driver.name).toBe('s3');
    expect(minioLoads).toBe(1);
  });
});

import S3rver from '@20minutes/s3rver';
import AWSAccount from '@20minutes/s3rver/lib/models/account.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createStorage, FsStorageDriver, InvalidKeyError, type S3StorageOptions, type StorageDriver } from '../../src/index.js';
// The package exports the S3 driver as a type only (createStorage loads it for STORAGE_DRIVER=s3).
import { S3StorageDriver } from '../../src/s3-driver.js';

// One contract, run against both drivers: the local folder, and S3 against @20minutes/s3rver started in
// this process. s3rver checks SigV4 signatures (the original s3rver 3.7 accepts any), so the credential
// and presigned-URL tests below mean something. No MinIO server installs on these machines.

const ACCESS_KEY = 'clipit-test';
const SECRET_KEY = randomBytes(20).toString('hex');

let tmp: string;
let server: S3rver | undefined;
let endpoint: string;
let bucket: string;

const s3Options = (overrides: Partial<S3StorageOptions> = {}): S3StorageOptions => ({
  endPoint: endpoint,
  bucket,
  accessKey: ACCESS_KEY,
  secretKey: SECRET_KEY,
  region: 'us-east-1',
  ...overrides,
});

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'clipit-storage-'));
  // Only our key pair is accepted: the built-in S3RVER/S3RVER one is revoked (per test file: Jest gives
  // each file its own module registry).
  AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY, SECRET_KEY);
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(tmp, 's3rver') });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  bucket = `clipit-test-${randomBytes(4).toString('hex')}`;
});

afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Bytes that differ from position to position, so a range off by one shows. */
function pattern(size: number, seed = 0): Buffer {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buf[i] = (i * 31 + seed) % 251;
  return buf;
}

const newKey = (name = 'object.bin') => `test/${randomUUID()}/${name}`;

const drivers: Array<[string, () => Promise<StorageDriver>]> = [
  ['fs', async () => new FsStorageDriver(join(tmp, 'fs'))],
  [
    's3',
    async () => {
      const driver = new S3StorageDriver(s3Options());
      await expect(driver.ensureBucket()).resolves.toBe(true);
      return driver;
    },
  ],
];

/** Writes `body` to a new file under the test's folder and answers its path. */
async function writeAndName(body: Buffer): Promise<string> {
  const file = join(tmp, `${randomUUID()}.bin`);
  await writeFile(file, body);
  return file;
}

describe.each(drivers)('the %s driver', (_name, make) => {
  let storage: StorageDriver;

  beforeAll(async () => {
    storage = await make();
  });

  it('stores a Buffer and describes it', async () => {
    const key = newKey('clip.mp4');
    const body = pattern(1000);
    const before = Date.now();
    await expect(storage.put(key, body, 'video/mp4')).resolves.toEqual({ key, size: 1000, contentType: 'video/mp4' });
    const info = await storage.stat(key);
    expect(info).toMatchObject({ key, size: 1000, contentType: 'video/mp4' });
    expect(info?.etag).toMatch(/^"[^"]+"$/);
    // (Not toBeInstanceOf(Date): fs.Stats dates come from outside Jest's realm.)
    expect(Object.prototype.toString.call(info?.lastModified)).toBe('[object Date]');
    // Last-Modified has whole seconds on S3.
    expect(Math.abs((info?.lastModified.getTime() ?? 0) - before)).toBeLessThan(60_000);
    expect(await readAll(await storage.read(key))).toEqual(body);
  });

  it('stores a stream, counting its size', async () => {
    const key = newKey('stream.bin');
    const parts = [pattern(700, 1), pattern(1, 2), pattern(4096, 3)];
    await expect(storage.put(key, Readable.from(parts), 'application/octet-stream')).resolves.toEqual({
      key,
      size: 4797,
      contentType: 'application/octet-stream',
    });
    expect(await storage.stat(key)).toMatchObject({ size: 4797, contentType: 'application/octet-stream' });
    expect(await readAll(await storage.read(key))).toEqual(Buffer.concat(parts));
  });

  it('stores an empty object', async () => {
    const key = newKey('empty.txt');
    await expect(storage.put(key, Buffer.alloc(0), 'text/plain')).resolves.toMatchObject({ size: 0 });
    expect(await storage.stat(key)).toMatchObject({ size: 0, contentType: 'text/plain' });
    expect((await readAll(await storage.read(key))).length).toBe(0);
    await storage.put(key, Readable.from([]), 'text/plain');
    expect(await storage.stat(key)).toMatchObject({ size: 0 });
  });

  it('reads byte ranges: the first bytes, the middle, the last byte', async () => {
    const key = newKey('ranged.bin');
    const body = pattern(10_000, 7);
    await storage.put(key, body, 'application/octet-stream');
    expect(await readAll(await storage.read(key, { start: 0, end: 0 }))).toEqual(body.subarray(0, 1));
    expect(await readAll(await storage.read(key, { start: 0, end: 99 }))).toEqual(body.subarray(0, 100));
    expect(await readAll(await storage.read(key, { start: 4321, end: 5678 }))).toEqual(body.subarray(4321, 5679));
    expect(await readAll(await storage.read(key, { start: 9999, end: 9999 }))).toEqual(body.subarray(9999));
    expect(await readAll(await storage.read(key, { start: 9000, end: 9999 }))).toEqual(body.subarray(9000));
  });

  it('replaces an object on a second put', async () => {
    const key = newKey('avatar');
    await storage.put(key, pattern(500, 1), 'image/png');
    const first = await storage.stat(key);
    const second = pattern(321, 9);
    await expect(storage.put(key, Readable.from([second]), 'image/jpeg')).resolves.toEqual({ key, size: 321, contentType: 'image/jpeg' });
    const info = await storage.stat(key);
    expect(info).toMatchObject({ size: 321, contentType: 'image/jpeg' });
    expect(info?.etag).not.toBe(first?.etag);
    expect(await readAll(await storage.read(key))).toEqual(second);
  });

  it('deletes, and deleting what is not there is fine', async () => {
    const key = newKey();
    await storage.put(key, pattern(10), 'application/octet-stream');
    await storage.delete(key);
    expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.delete(newKey())).resolves.toBeUndefined();
  });

  it('knows nothing of a key never written', async () => {
    const key = newKey();
    expect(await storage.stat(key)).toBeUndefined();
    // Either read rejects or its stream fails: a missing object never reads as empty.
    await expect((async () => readAll(await storage.read(key)))()).rejects.toThrow();
  });

  it('stores nothing when the body stream fails', async () => {
    const key = newKey();
    async function* failing() {
      yield pattern(100);
      throw new Error('upload cut off');
    }
    await expect(storage.put(key, Readable.from(failing()), 'application/octet-stream')).rejects.toThrow('upload cut off');
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('uploads a local file and downloads an object into one, byte for byte', async () => {
    const key = newKey('video.mp4');
    // Several of the S3 driver's 1 MB reads and writes, and not a whole number of them (under its 16 MB part:
    // s3rver has no multipart uploads).
    const body = pattern(5 * 1024 * 1024 + 123, 5);
    const source = join(tmp, `${randomUUID()}.mp4`);
    await writeFile(source, body);
    await expect(storage.upload(key, source, 'video/mp4')).resolves.toEqual({ key, size: body.length, contentType: 'video/mp4' });
    expect(await storage.stat(key)).toMatchObject({ size: body.length, contentType: 'video/mp4' });
    // Downloaded over a file that was there: replaced, not appended to.
    const target = join(tmp, `${randomUUID()}.mp4`);
    await writeFile(target, pattern(50, 1));
    await storage.download(key, target);
    expect((await readFile(target)).equals(body)).toBe(true);
    // A small one, replaced by a second upload.
    await storage.upload(key, await writeAndName(pattern(10, 2)), 'image/jpeg');
    expect(await storage.stat(key)).toMatchObject({ size: 10, contentType: 'image/jpeg' });
  });

  it('downloads nothing of a key never written, and refuses an aborted download', async () => {
    const target = join(tmp, `${randomUUID()}.bin`);
    await expect(storage.download(newKey(), target)).rejects.toThrow();
    const key = newKey();
    await storage.put(key, pattern(1000), 'application/octet-stream');
    await expect(storage.download(key, target, AbortSignal.abort())).rejects.toThrow();
  });

  it('stores nothing when the file to upload is not there', async () => {
    const key = newKey();
    await expect(storage.upload(key, join(tmp, 'no-such-file'), 'video/mp4')).rejects.toThrow();
    expect(await storage.stat(key)).toBeUndefined();
  });

  it.each([
    ['a parent step', '../escape'],
    ['a parent step inside', 'a/../../b'],
    ['an absolute path', '/etc/passwd'],
    ['an empty segment', 'a//b'],
    ['a trailing slash', 'a/'],
    ['the empty key', ''],
    ['a dot segment', 'a/./b'],
    ['a hidden name', '.env'],
    ['a space', 'my clip.mp4'],
    ['a backslash', 'a\\b'],
    ['a query', 'a?b=1'],
    ['a NUL byte', 'a\u0000b'],
    ['non-ASCII', 'clip-é.mp4'],
    ['over 512 characters', 'x'.repeat(513)],
  ])('refuses a key with %s', async (_what, key) => {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(InvalidKeyError);
    await expect(storage.stat(key)).rejects.toThrow(InvalidKeyError);
    await expect(storage.read(key)).rejects.toThrow(InvalidKeyError);
    await expect(storage.delete(key)).rejects.toThrow(InvalidKeyError);
    await expect(storage.upload(key, join(tmp, 'any'), 'text/plain')).rejects.toThrow(InvalidKeyError);
    await expect(storage.download(key, join(tmp, 'any'))).rejects.toThrow(InvalidKeyError);
  });
});

describe('the s3 driver against a server that checks signatures', () => {
  let storage: S3StorageDriver;

  beforeAll(async () => {
    storage = new S3StorageDriver(s3Options());
    await storage.ensureBucket();
  });

  it('creates a missing bucket once, then leaves it', async () => {
    const other = new S3StorageDriver(s3Options({ bucket: `${bucket}-other` }));
    await expect(other.ensureBucket()).resolves.toBe(true);
    await expect(other.ensureBucket()).resolves.toBe(false);
    await other.put('a.txt', Buffer.from('a'), 'text/plain');
    expect(await other.stat('a.txt')).toMatchObject({ size: 1 });
  });

  it('lets services booting at the same moment each ensure one missing bucket, none failing', async () => {
    const racers = Array.from({ length: 8 }, () => new S3StorageDriver(s3Options({ bucket: `${bucket}-race` })));
    const outcomes = await Promise.allSettled(racers.map((d) => d.ensureBucket()));
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    await racers[0]!.put('a.txt', Buffer.from('a'), 'text/plain');
    expect(await racers[7]!.stat('a.txt')).toMatchObject({ size: 1 });
  });

  it('is refused with a wrong secret key or an unknown access key, and nothing is stored', async () => {
    const key = newKey();
    const wrongSecret = new S3StorageDriver(s3Options({ secretKey: `${SECRET_KEY}x` }));
    await expect(wrongSecret.put(key, Buffer.from('nope'), 'text/plain')).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    await expect(wrongSecret.put(key, Readable.from([Buffer.from('nope')]), 'text/plain')).rejects.toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    await expect(wrongSecret.stat(key)).rejects.toMatchObject({ code: expect.any(String) });
    const unknownKey = new S3StorageDriver(s3Options({ accessKey: 'S3RVER', secretKey: 'S3RVER' }));
    await expect(unknownKey.put(key, Buffer.from('nope'), 'text/plain')).rejects.toMatchObject({ code: 'InvalidAccessKeyId' });
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('hands out presigned PUT URLs that work as signed and fail when tampered with', async () => {
    const key = newKey('upload.webm');
    const url = await storage.presignedPutUrl(key, 60);
    const body = pattern(2048, 5);

    const signature = new URL(url).searchParams.get('X-Amz-Signature') ?? '';
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Signature', `${signature[0] === '0' ? '1' : '0'}${signature.slice(1)}`);
    const forged = await fetch(tampered, { method: 'PUT', body });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('SignatureDoesNotMatch');
    // The signature covers the key: the same query on another key is refused as well.
    const elsewhere = new URL(url);
    elsewhere.pathname = elsewhere.pathname.replace('upload.webm', 'other.webm');
    expect((await fetch(elsewhere, { method: 'PUT', body })).status).toBe(403);
    expect(await storage.stat(key)).toBeUndefined();

    const answer = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'video/webm' } });
    expect(answer.status).toBe(200);
    expect(await storage.stat(key)).toMatchObject({ size: 2048, contentType: 'video/webm' });
    expect(await readAll(await storage.read(key))).toEqual(body);
  });

  it('signs presigned URLs for the public endpoint when it differs from the one services use', async () => {
    // The same server under another name, as a browser would reach MinIO outside the compose network.
    const publicEndPoint = endpoint.replace('127.0.0.1', 'localhost');
    const viaPublicName = new S3StorageDriver(s3Options({ publicEndPoint }));
    const key = newKey('browser.mp4');
    const url = new URL(await viaPublicName.presignedPutUrl(key, 60));
    expect(url.origin).toBe(publicEndPoint);
    const answer = await fetch(url, { method: 'PUT', body: pattern(512, 9), headers: { 'Content-Type': 'video/mp4' } });
    expect(answer.status).toBe(200);
    expect(await storage.stat(key)).toMatchObject({ size: 512, contentType: 'video/mp4' });
  });

  it('refuses presigning an unsafe key or an expiry outside 1 s to 7 days', async () => {
    await expect(storage.presignedPutUrl('../x', 60)).rejects.toThrow(InvalidKeyError);
    await expect(storage.presignedPutUrl('x', 0)).rejects.toThrow(RangeError);
    await expect(storage.presignedPutUrl('x', 7 * 24 * 3600 + 1)).rejects.toThrow(RangeError);
    await expect(storage.presignedPutUrl('x', 1.5)).rejects.toThrow(RangeError);
  });

  it('refuses a backwards byte range instead of reading the whole object', async () => {
    const key = newKey();
    await storage.put(key, pattern(10), 'application/octet-stream');
    await expect(storage.read(key, { start: 5, end: 4 })).rejects.toThrow(RangeError);
  });

  it('is what createStorage builds for STORAGE_DRIVER=s3', async () => {
    const built = await createStorage({
      STORAGE_DRIVER: 's3',
      STORAGE_FS_ROOT: '.data/storage',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY: ACCESS_KEY,
      S3_SECRET_KEY: SECRET_KEY,
      S3_REGION: 'us-east-1',
    });
    expect(built).toBeInstanceOf(S3StorageDriver);
    const key = newKey('via-config.txt');
    await built.put(key, Buffer.from('hello'), 'text/plain');
    expect(await storage.stat(key)).toMatchObject({ size: 5, contentType: 'text/plain' });
  });
});

import { jest } from '@jest/globals';
import { Readable, Writable } from 'node:stream';

// What the driver adds around the minio client, against a stand-in client: the paths an in-process S3
// server cannot exercise (multipart uploads of long streams, servers that mishandle ranges, odd errors).
// The integration suite runs the driver against a real S3 protocol server.

class FakeS3Error extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

interface PutCall {
  bucket: string;
  key: string;
  body: Buffer | Readable;
  size: number | undefined;
  metadata: Record<string, string>;
  received: Promise<Buffer>;
}

class FakeClient {
  static last: FakeClient;
  puts: PutCall[] = [];
  answer: { statObject?: () => unknown; getPartialObject?: () => Readable; removeObject?: () => void; makeBucket?: () => void } = {};

  constructor(readonly options: Record<string, unknown>) {
    FakeClient.last = this;
  }

  putObject(bucket: string, key: string, body: Buffer | Readable, size: number | undefined, metadata: Record<string, string>) {
    // Like minio: a stream is piped into the part splitter, whose end is awaited; the source's errors are
    // not watched, so a failing source never settles the upload.
    const received = Buffer.isBuffer(body)
      ? Promise.resolve(body)
      : new Promise<Buffer>((resolve) => {
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
          });
          sink.on('finish', () => resolve(Buffer.concat(chunks)));
          body.pipe(sink);
        });
    this.puts.push({ bucket, key, body, size, metadata, received });
    return received.then(() => ({ etag: 'e', versionId: null }));
  }

  async statObject() {
    return this.answer.statObject?.();
  }

  async getPartialObject() {
    return this.answer.getPartialObject?.();
  }

  async removeObject() {
    this.answer.removeObject?.();
  }

  async bucketExists() {
    return false;
  }

  async makeBucket() {
    this.answer.makeBucket?.();
  }
}

jest.unstable_mockModule('minio', () => ({ Client: FakeClient, S3Error: FakeS3Error }));
const { S3StorageDriver } = await import('./s3-driver.js');

const PART = 16 * 1024 * 1024;
const options = { endPoint: 'http://minio:9000', bucket: 'clipit-media', accessKey: 'ak', secretKey: 'sk', region: 'us-east-1' };

function driver() {
  const d = new S3StorageDriver(options);
  return { d, client: FakeClient.last };
}

/** A stream of `total` bytes in 1 MiB chunks, failing instead of ending when `fail` is given. */
function megabytes(total: number, fail?: Error): Readable {
  async function* gen() {
    for (let sent = 0; sent < total; sent += 1024 * 1024) yield Buffer.alloc(Math.min(1024 * 1024, total - sent), sent % 251);
    if (fail) throw fail;
  }
  return Readable.from(gen());
}

function answer(body: Buffer, statusCode: number, contentRange?: string): Readable {
  return Object.assign(Readable.from([body]), { statusCode, headers: contentRange ? { 'content-range': contentRange } : {} });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3StorageDriver around the minio client', () => {
  it('configures the client from the endpoint URL, path-style, with bounded parts', () => {
    const { client } = driver();
    expect(client.options).toEqual({
      endPoint: 'minio',
      port: 9000,
      useSSL: false,
      accessKey: 'ak',
      secretKey: 'sk',
      region: 'us-east-1',
      pathStyle: true,
      partSize: PART,
    });
    new S3StorageDriver({ ...options, endPoint: 'https://s3.example.com' });
    expect(FakeClient.last.options).toMatchObject({ endPoint: 's3.example.com', port: 443, useSSL: true });
  });

  it('sends a Buffer, and a stream no longer than a part, in one request with its size and type', async () => {
    const { d, client } = driver();
    await expect(d.put('a/b.png', Buffer.from('png'), 'image/png')).resolves.toEqual({ key: 'a/b.png', size: 3, contentType: 'image/png' });
    await expect(d.put('a/c.bin', megabytes(PART), 'application/octet-stream')).resolves.toMatchObject({ size: PART });
    expect(client.puts.map(({ key, size, metadata, body }) => ({ key, size, metadata, buffer: Buffer.isBuffer(body) }))).toEqual([
      { key: 'a/b.png', size: 3, metadata: { 'Content-Type': 'image/png' }, buffer: true },
      { key: 'a/c.bin', size: PART, metadata: { 'Content-Type': 'application/octet-stream' }, buffer: true },
    ]);
  });

  it('streams a longer body (multipart) without knowing its size, every byte in order', async () => {
    const { d, client } = driver();
    const total = PART + 3 * 1024 * 1024 + 17;
    await expect(d.put('clips/long.mp4', megabytes(total), 'video/mp4')).resolves.toEqual({
      key: 'clips/long.mp4',
      size: total,
      contentType: 'video/mp4',
    });
    const [call] = client.puts;
    expect(call?.size).toBeUndefined();
    expect(Buffer.isBuffer(call?.body)).toBe(false);
    // (Buffer.equals: toEqual compares 19 MiB byte by byte, for minutes.)
    const [received, expected] = [await call?.received, await readAll(megabytes(total))];
    expect(received?.length).toBe(total);
    expect(received?.equals(expected)).toBe(true);
  });

  it('fails the put when a long body fails, though the client would wait forever', async () => {
    const { d } = driver();
    await expect(d.put('clips/cut.mp4', megabytes(PART + 2 * 1024 * 1024, new Error('client went away')), 'video/mp4')).rejects.toThrow(
      'client went away',
    );
  });

  it('reports stat answers as ObjectInfo, and only a missing object as undefined', async () => {
    const { d, client } = driver();
    const lastModified = new Date('2026-01-02T03:04:05Z');
    client.answer.statObject = () => ({ size: 5, etag: 'abc-2', lastModified, metaData: { 'Content-Type': 'video/webm' } });
    await expect(d.stat('k')).resolves.toEqual({ key: 'k', size: 5, contentType: 'video/webm', lastModified, etag: '"abc-2"' });
    client.answer.statObject = () => ({ size: 5, etag: 'abc', lastModified, metaData: {} });
    await expect(d.stat('k')).resolves.toMatchObject({ contentType: 'application/octet-stream' });
    for (const code of ['NotFound', 'NoSuchKey']) {
      client.answer.statObject = () => {
        throw new FakeS3Error(code);
      };
      await expect(d.stat('k')).resolves.toBeUndefined();
    }
    for (const code of ['AccessDenied', 'NoSuchBucket']) {
      client.answer.statObject = () => {
        throw new FakeS3Error(code);
      };
      await expect(d.stat('k')).rejects.toMatchObject({ code });
    }
  });

  it('gives exactly the bytes of a range, whatever the server answered', async () => {
    const { d, client } = driver();
    const object = Buffer.from('0123456789');
    client.answer.getPartialObject = () => answer(object.subarray(2, 5), 206, 'bytes 2-4/10');
    expect((await readAll(await d.read('k', { start: 2, end: 4 }))).toString()).toBe('234');
    // Range ignored: 200 with the whole object.
    client.answer.getPartialObject = () => answer(object, 200);
    expect((await readAll(await d.read('k', { start: 2, end: 4 }))).toString()).toBe('234');
    // bytes=0-0 answered with more than one byte (s3rver).
    client.answer.getPartialObject = () => answer(object, 206, 'bytes 0-9/10');
    expect((await readAll(await d.read('k', { start: 0, end: 0 }))).toString()).toBe('0');
    // Past the end: the server's shorter answer stands.
    client.answer.getPartialObject = () => answer(object.subarray(8), 206, 'bytes 8-9/10');
    expect((await readAll(await d.read('k', { start: 8, end: 20 }))).toString()).toBe('89');
    // Some other range: refused rather than served as the one asked for.
    client.answer.getPartialObject = () => answer(object.subarray(0, 3), 206, 'bytes 0-2/10');
    await expect(d.read('k', { start: 2, end: 4 })).rejects.toThrow('answered bytes 0-2 when asked for bytes 2-4');
  });

  it('ignores a missing object on delete, not other errors', async () => {
    const { d, client } = driver();
    client.answer.removeObject = () => {
      throw new FakeS3Error('NoSuchKey');
    };
    await expect(d.delete('k')).resolves.toBeUndefined();
    client.answer.removeObject = () => {
      throw new FakeS3Error('AccessDenied');
    };
    await expect(d.delete('k')).rejects.toMatchObject({ code: 'AccessDenied' });
  });

  it('takes a bucket made meanwhile by another instance as there', async () => {
    const { d, client } = driver();
    await expect(d.ensureBucket()).resolves.toBe(true);
    client.answer.makeBucket = () => {
      throw new FakeS3Error('BucketAlreadyOwnedByYou');
    };
    await expect(d.ensureBucket()).resolves.toBe(false);
    client.answer.makeBucket = () => {
      throw new FakeS3Error('BucketAlreadyExists');
    };
    await expect(d.ensureBucket()).rejects.toMatchObject({ code: 'BucketAlreadyExists' });
  });
});

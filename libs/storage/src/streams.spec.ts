import { Readable } from 'node:stream';
import { byteWindow, readHead } from './streams.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const bytes = (n: number, seed = 0) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + seed) % 256));

describe('readHead', () => {
  it('returns a body no longer than the limit whole', async () => {
    const head = await readHead(Readable.from([bytes(3), bytes(4, 1), 'ab']), 9);
    expect(head).toEqual({ complete: true, data: Buffer.concat([bytes(3), bytes(4, 1), Buffer.from('ab')]) });
    expect(await readHead(Readable.from([]), 9)).toEqual({ complete: true, data: Buffer.alloc(0) });
  });

  it('hands on a longer body as a stream replaying every byte, and counts them', async () => {
    const parts = [bytes(5), bytes(5, 1), bytes(5, 2), bytes(5, 3)];
    const head = await readHead(Readable.from(parts), 8);
    if (head.complete) throw new Error('expected a stream');
    expect(await readAll(head.stream)).toEqual(Buffer.concat(parts));
    expect(head.bytesRead()).toBe(20);
  });

  it('rejects when the source fails within the head, and the replay fails when it fails later', async () => {
    async function* early() {
      yield bytes(2);
      throw new Error('early');
    }
    await expect(readHead(Readable.from(early()), 8)).rejects.toThrow('early');
    async function* late() {
      yield bytes(10);
      yield bytes(10);
      throw new Error('late');
    }
    const head = await readHead(Readable.from(late()), 8);
    if (head.complete) throw new Error('expected a stream');
    await expect(readAll(head.stream)).rejects.toThrow('late');
  });

  it('destroys the source when the replay is destroyed', async () => {
    const source = Readable.from([bytes(10), bytes(10), bytes(10)]);
    const head = await readHead(source, 8);
    if (head.complete) throw new Error('expected a stream');
    head.stream.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.destroyed).toBe(true);
  });
});

describe('byteWindow', () => {
  const body = bytes(100);
  const chunked = () => Readable.from([body.subarray(0, 7), body.subarray(7, 50), body.subarray(50, 51), body.subarray(51)]);

  it.each([
    [0, 1],
    [0, 100],
    [6, 3],
    [7, 43],
    [49, 2],
    [99, 1],
    [90, 50],
  ])('skips %i bytes and passes %i', async (skip, take) => {
    expect(await readAll(byteWindow(chunked(), skip, take))).toEqual(body.subarray(skip, skip + take));
  });

  it('stops reading the source once the window is full', async () => {
    const source = chunked();
    expect(await readAll(byteWindow(source, 0, 7))).toEqual(body.subarray(0, 7));
    expect(source.destroyed).toBe(true);
  });
});

import { Readable } from 'node:stream';

/** What {@link readHead} found: the whole body, or a stream that still yields every byte. */
export type Head =
  | { complete: true; data: Buffer }
  | {
      complete: false;
      /** The bytes already read, then the rest of the source; destroying it destroys the source. */
      stream: Readable;
      /** Bytes that passed through `stream` so far; the total once it has ended. */
      bytesRead: () => number;
    };

/**
 * Reads a stream until it ends or more than `limit` bytes have arrived. A short body comes back whole
 * (so it can be sent with a known size); a longer one comes back as a stream that replays what was read
 * and then continues with the source, holding at most about `limit` bytes in memory meanwhile.
 */
export async function readHead(source: Readable, limit: number): Promise<Head> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { complete: true, data: Buffer.concat(chunks, total) };
    const chunk = toBuffer(next.value);
    chunks.push(chunk);
    total += chunk.length;
    if (total > limit) break;
  }
  let passed = 0;
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      while (chunks.length > 0) {
        const chunk = chunks.shift() as Buffer;
        passed += chunk.length;
        yield chunk;
      }
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        const chunk = toBuffer(next.value);
        passed += chunk.length;
        yield chunk;
      }
    } finally {
      // Ended early (the consumer failed or gave up): let go of the source as well.
      await iterator.return?.();
    }
  }
  const stream = Readable.from(replay(), { objectMode: false });
  // Destroyed before its first read, the generator never runs its finally: let go of the source here too.
  stream.once('close', () => {
    if (!source.destroyed) source.destroy();
  });
  return { complete: false, stream, bytesRead: () => passed };
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('object bodies must be byte streams (Buffer, Uint8Array or string chunks)');
}

/**
 * The `take` bytes of `source` that follow its first `skip` bytes, as a stream that ends there (and then
 * lets go of the source, so an HTTP body stops downloading).
 */
export function byteWindow(source: Readable, skip: number, take: number): Readable {
  async function* window(): AsyncGenerator<Buffer> {
    let toSkip = skip;
    let left = take;
    if (left <= 0) {
      source.destroy();
      return;
    }
    for await (const raw of source) {
      let chunk = toBuffer(raw);
      if (toSkip > 0) {
        const dropped = Math.min(toSkip, chunk.length);
        chunk = chunk.subarray(dropped);
        toSkip -= dropped;
      }
      if (chunk.length === 0) continue;
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      yield part;
      if (left === 0) return;
    }
  }
  return Readable.from(window(), { objectMode: false });
}

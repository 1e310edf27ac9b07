import { describe, expect, it } from '@jest/globals';
import type { GatewayConfig } from '../config.js';
import { matchesEtag, PublicReadCache, serialize } from './read-cache.js';

const quiet = { warn: () => undefined } as never;

function cache(ttlMs = 10_000, maxEntries = 100): { cache: PublicReadCache; notice: () => void } {
  let callback: ((err: Error | null) => void) | undefined;
  const nc = {
    subscribe: (_subject: string, opts: { callback: (err: Error | null) => void }) => (
      (callback = opts.callback),
      { unsubscribe: () => undefined }
    ),
  };
  const config = {
    PUBLIC_READ_CACHE_TTL_MS: ttlMs,
    PUBLIC_READ_CACHE_MAX_ENTRIES: maxEntries,
    EVENTS_SUBJECT_PREFIX: 'events',
  } as GatewayConfig;
  const c = new PublicReadCache(config, nc as never, quiet);
  c.onModuleInit();
  return { cache: c, notice: () => callback!(null) };
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PublicReadCache', () => {
  it('loads a key once for every concurrent asker and answers the next ones from memory', async () => {
    const { cache: c } = cache();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const [a, b] = await Promise.all([c.get('k', load), c.get('k', load)]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect((await c.get('k', load)).value).toEqual({ n: 1 });
    expect(c.peek('k')?.body.toString()).toBe('{"n":1}');
  });

  it('drops everything on a feed notice, and keeps nothing loaded across one', async () => {
    const { cache: c, notice } = cache();
    await c.get('a', async () => 1);
    notice();
    expect(c.peek('a')).toBeUndefined();

    const slow = deferred<number>();
    const pending = c.get('b', () => slow.promise);
    notice(); // the read models changed while the answer was on its way
    slow.resolve(2);
    expect((await pending).value).toBe(2); // its callers get it...
    expect(c.peek('b')).toBeUndefined(); // ...but it is not kept
  });

  it('forgets an answer after its time limit, and keeps nothing with a limit of 0', async () => {
    const { cache: c } = cache(30);
    await c.get('a', async () => 1);
    expect(c.peek('a')).toBeDefined();
    await new Promise((r) => setTimeout(r, 60));
    expect(c.peek('a')).toBeUndefined();
    const { cache: off } = cache(0);
    await off.get('a', async () => 1);
    expect(off.peek('a')).toBeUndefined();
    expect(off.size).toBe(0);
  });

  it('keeps at most the configured number of answers, the least recently stored going first', async () => {
    const { cache: c } = cache(10_000, 2);
    await c.get('a', async () => 1);
    await c.get('b', async () => 2);
    await c.get('c', async () => 3);
    expect(c.size).toBe(2);
    expect(c.peek('a')).toBeUndefined();
    expect(c.peek('c')?.value).toBe(3);
  });

  it('does not keep a failed load', async () => {
    const { cache: c } = cache();
    await expect(c.get('a', async () => Promise.reject(new Error('away')))).rejects.toThrow('away');
    expect((await c.get('a', async () => 5)).value).toBe(5);
  });
});

describe('ETags', () => {
  it('gives the same bytes the same strong tag and other bytes another', () => {
    expect(serialize({ a: 1 }).etag).toBe(serialize({ a: 1 }).etag);
    expect(serialize({ a: 1 }).etag).not.toBe(serialize({ a: 2 }).etag);
    expect(serialize({ a: 1 }).etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    const tag = '"abc"';
    expect(matchesEtag(undefined, tag)).toBe(false);
    expect(matchesEtag('"abc"', tag)).toBe(true);
    expect(matchesEtag('"x", W/"abc"', tag)).toBe(true);
    expect(matchesEtag('*', tag)).toBe(true);
    expect(matchesEtag('"abd"', tag)).toBe(false);
  });
});

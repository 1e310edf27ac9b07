import { matchesIfNoneMatch } from './v1-etags.js';

describe('v1 ETags', () => {
  const etag = '"abc123"';

  it("matches the answer's tag in any coding the client kept, weakly, within a list, or *", () => {
    expect(matchesIfNoneMatch('"abc123"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"abc123-br"', etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc123-gzip"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"zzz", "abc123"', etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
  });

  it('does not match another tag, a missing header or a tag that only shares a prefix', () => {
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch('', etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc12"', etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc123-deflate"', etag)).toBe(false);
  });
});

describe('v1 ETags on the wire', () => {
  async function app() {
    const { default: Fastify } = await import('fastify');
    const { installV1Etags } = await import('./v1-etags.js');
    const fastify = Fastify();
    installV1Etags(fastify);
    const items = Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, handle: `clipper_${i}` }));
    fastify.get('/api/v1/things', async () => ({ items, nextCursor: null }));
    return fastify;
  }

  it('tags a compressed answer with its coding, and answers 304 with the tag a 200 would carry', async () => {
    const fastify = await app();
    const first = await fastify.inject({ method: 'GET', url: '/api/v1/things', headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const tag = String(first.headers['etag']);
    expect(tag).toMatch(/-br"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await fastify.inject({
      method: 'GET',
      url: '/api/v1/things',
      headers: { 'accept-encoding': 'br', 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['etag']).toBe(tag);
    expect(again.body).toBe('');
    // A client without compression that kept the br answer's tag: the same data, 304 with the plain tag.
    const plain = await fastify.inject({ method: 'GET', url: '/api/v1/things', headers: { 'if-none-match': tag } });
    expect(plain.statusCode).toBe(304);
    expect(plain.headers['etag']).toBe(tag.replace(/-br"$/, '"'));
    await fastify.close();
  });
});

import { describe, expect, it } from '@jest/globals';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { encodedJson, etagFor, jsonEncodingFor, MIN_COMPRESSED_BYTES, varyOnEncoding } from './json-compression.js';

const big = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: `clip-${i}`, views: i * 10 }))));

describe('JSON compression', () => {
  it('picks brotli, then gzip, by what the client takes, and nothing under a packet', () => {
    expect(jsonEncodingFor('gzip, deflate, br', big.length)).toBe('br');
    expect(jsonEncodingFor(['gzip', 'deflate'], big.length)).toBe('gzip');
    expect(jsonEncodingFor('br;q=0, gzip', big.length)).toBe('gzip');
    expect(jsonEncodingFor('identity', big.length)).toBeUndefined();
    expect(jsonEncodingFor(undefined, big.length)).toBeUndefined();
    expect(jsonEncodingFor('br', MIN_COMPRESSED_BYTES - 1)).toBeUndefined();
  });

  it('compresses a read once per encoding and names the coding in its ETag', () => {
    const read: Parameters<typeof encodedJson>[0] = { body: big, etag: '"abc"' };
    const br = encodedJson(read, 'br');
    expect(br.etag).toBe('"abc-br"');
    expect(brotliDecompressSync(br.body).equals(big)).toBe(true);
    expect(encodedJson(read, 'br').body).toBe(br.body);
    const gz = encodedJson(read, 'gzip');
    expect([gz.etag, gunzipSync(gz.body).equals(big)]).toEqual(['"abc-gzip"', true]);
    expect(encodedJson(read, undefined)).toEqual({ body: big, etag: '"abc"', encoding: undefined });
    expect(etagFor('"x"', undefined)).toBe('"x"');
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyOnEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyOnEncoding('Cookie')).toBe('Cookie, Accept-Encoding');
    expect(varyOnEncoding('Cookie, accept-encoding')).toBe('Cookie, accept-encoding');
  });
});

// JSON answers of the API compressed for the browsers that take it, like the web app's own files:
// brotli where accepted, else gzip, never for an answer under a packet. A shared read from the read
// cache is compressed once per encoding and kept with its bytes, so a hot read costs no compression;
// its ETag names the coding ("…-br"), as a strong validator must when the bytes differ.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chooseEncoding, ENCODINGS } from './content-encoding.js';

/** Answers smaller than this go as they are: compressing would save less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

export type JsonEncoding = (typeof ENCODINGS)[number]['name'];

/** JSON bytes in `encoding`: brotli at a quality fast enough for a request path (5), or gzip at 6. */
export function compressJson(body: Buffer, encoding: JsonEncoding): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzipSync(body, { level: 6 });
}

/** The encoding to send `size` bytes of JSON in for this Accept-Encoding, or none (small, or not accepted). */
export function jsonEncodingFor(acceptEncoding: string | string[] | undefined, size: number): JsonEncoding | undefined {
  if (size < MIN_COMPRESSED_BYTES) return undefined;
  return chooseEncoding(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding, ENCODINGS)?.name;
}

/** JSON bytes with their ETag, and their compressed forms once made. */
export interface EncodableJson {
  body: Buffer;
  etag: string;
  encoded?: Partial<Record<JsonEncoding, Buffer>>;
}

/** `etag` (a quoted strong tag) for the bytes in `encoding`. */
export const etagFor = (etag: string, encoding: JsonEncoding | undefined): string =>
  encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;

/**
 * What to send of `read` for this Accept-Encoding: its bytes as they are, or compressed (made once and
 * kept on `read`), with the ETag of what is sent.
 */
export function encodedJson(
  read: EncodableJson,
  acceptEncoding: string | string[] | undefined,
): { body: Buffer; etag: string; encoding: JsonEncoding | undefined } {
  const encoding = jsonEncodingFor(acceptEncoding, read.body.length);
  if (!encoding) return { body: read.body, etag: read.etag, encoding };
  read.encoded ??= {};
  const body = (read.encoded[encoding] ??= compressJson(read.body, encoding));
  return { body, etag: etagFor(read.etag, encoding), encoding };
}

/** `vary` with Accept-Encoding added (once). */
export function varyOnEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

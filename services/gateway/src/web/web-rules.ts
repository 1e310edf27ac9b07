// The rules of serving the web app, free of I/O so they are tested alone: which paths belong to the
// single-page app, how long a file may be cached, what type it is.
import { extname } from 'node:path';
import { ENCODINGS } from '../http/content-encoding.js';

// Content negotiation is the HTTP layer's (JSON answers use it too); the web's files are named by it.
export { chooseEncoding, ENCODINGS, type Encoding } from '../http/content-encoding.js';

// Names the build gives content hashes (`main.2112ee4e.js`, `routes.ab350df2.js.map`): they never change.
const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+(\.map)?$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Anything else (index.html, remoteEntry.js, mf-manifest.json) may be kept, but is revalidated before every use. */
export const REVALIDATE = 'no-cache';

export function cacheControlFor(fileName: string): string {
  return HASHED.test(fileName) ? IMMUTABLE : REVALIDATE;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.zip': 'application/zip',
  '.webmanifest': 'application/manifest+json',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

export function contentTypeFor(fileName: string): string {
  return TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** Text assets the build precompresses (a `.br` and a `.gz` sibling; see @clipit/frontend-build). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|map|svg|txt|webmanifest)$/i;

export function isCompressible(fileName: string): boolean {
  return COMPRESSIBLE.test(fileName);
}

/**
 * Files a browser asks for in byte ranges (a <video> seeks and starts with `Range: bytes=0-`): every file
 * that is sent as it is on disk. A text asset is not: its bytes depend on the encoding chosen.
 */
export function servesRanges(fileName: string): boolean {
  return !isCompressible(fileName);
}

/** A precompressed sibling itself (`main.js.br`): never served by its own name. */
export function isPrecompressedSibling(fileName: string): boolean {
  return ENCODINGS.some((e) => fileName.endsWith(e.suffix) && isCompressible(fileName.slice(0, -e.suffix.length)));
}

// Paths with owners of their own: they answer for themselves (an unknown one is a 404 in text, never the app).
const RESERVED = [/^\/api(\/|$)/, /^\/media(\/|$)/, /^\/health/, /^\/metrics(\/|$)/, /^\/remotes(\/|$)/, /^\/remotes\.json$/];

export function isReservedPath(path: string): boolean {
  return RESERVED.some((pattern) => pattern.test(path));
}

/** A last segment with an extension asks for a file (`/js/main.1234abcd.js`), not a page of the app. */
export function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]+$/.test(last);
}

/**
 * Whether the client takes HTML: Accept names text/html (or application/xhtml+xml, or a wildcard that
 * covers it) with a non-zero weight. No Accept header at all means anything.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return ['text/html', 'application/xhtml+xml', 'text/*', '*/*'].includes(type.trim());
  });
}

/**
 * A request path as a file path inside a served folder, or undefined when it could not name one:
 * empty, a directory, `.`/`..` segments, hidden files, backslashes or NUL bytes.
 */
export function safeRelativePath(path: string): string | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.length === 0 || path.endsWith('/')) return undefined;
  if (segments.some((s) => s.startsWith('.') || s.includes('\\') || s.includes('\0'))) return undefined;
  return segments.join('/');
}

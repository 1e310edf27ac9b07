import { describe, expect, it } from '@jest/globals';
import {
  acceptsHtml,
  cacheControlFor,
  chooseEncoding,
  contentTypeFor,
  ENCODINGS,
  isCompressible,
  isPrecompressedSibling,
  isReservedPath,
  looksLikeFile,
  safeRelativePath,
} from './web-rules.js';

describe('web rules', () => {
  it('caches only content-hashed names for good', () => {
    for (const name of [
      'main.2112ee4e.js',
      '__federation_expose_routes.ab350df2.js',
      'main.0a1b2c3d.css',
      'main.2112ee4e.js.map',
      'logo.0123456789abcdef.svg',
    ]) {
      expect({ name, cache: cacheControlFor(name) }).toEqual({ name, cache: 'public, max-age=31536000, immutable' });
    }
    for (const name of ['index.html', 'remoteEntry.js', 'mf-manifest.json', 'favicon.ico', 'main.js', 'main.abc.js', 'main.2112ee4.js']) {
      expect({ name, cache: cacheControlFor(name) }).toEqual({ name, cache: 'no-cache' });
    }
  });

  it('types files by extension', () => {
    expect(contentTypeFor('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('remoteEntry.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('mf-manifest.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('font.WOFF2')).toBe('font/woff2');
    expect(contentTypeFor('blob')).toBe('application/octet-stream');
  });

  it('keeps API, media, health, metrics and remote paths away from the app', () => {
    for (const path of ['/api', '/api/x', '/media/a.png', '/health', '/health/live', '/metrics', '/remotes/public/x.js', '/remotes.json']) {
      expect({ path, reserved: isReservedPath(path) }).toEqual({ path, reserved: true });
    }
    for (const path of ['/', '/login', '/feed', '/apis', '/mediakit', '/remotesx', '/clippers/dashboard']) {
      expect({ path, reserved: isReservedPath(path) }).toEqual({ path, reserved: false });
    }
  });

  it('tells files from pages by the last segment', () => {
    expect(looksLikeFile('/js/main.1234abcd.js')).toBe(true);
    expect(looksLikeFile('/favicon.ico')).toBe(true);
    expect(looksLikeFile('/clipper/42')).toBe(false);
    expect(looksLikeFile('/v1.2/page')).toBe(false);
    expect(looksLikeFile('/')).toBe(false);
  });

  it('reads Accept the way browsers and tools send it', () => {
    expect(acceptsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(acceptsHtml(undefined)).toBe(true);
    expect(acceptsHtml('*/*')).toBe(true);
    expect(acceptsHtml('application/json')).toBe(false);
    expect(acceptsHtml('image/avif,image/webp')).toBe(false);
    expect(acceptsHtml('text/html;q=0, application/json')).toBe(false);
  });

  it('accepts only plain relative file paths', () => {
    expect(safeRelativePath('/js/main.js')).toBe('js/main.js');
    expect(safeRelativePath('js//main.js')).toBe('js/main.js');
    for (const bad of ['', '/', '/js/', '/../etc/passwd', 'js/../../x', '/.env', '/js/.hidden', 'a\\..\\b', 'a\0b']) {
      expect({ bad, path: safeRelativePath(bad) }).toEqual({ bad, path: undefined });
    }
  });

  it('picks brotli, then gzip, as Accept-Encoding allows', () => {
    const both = ENCODINGS;
    const gzipOnly = ENCODINGS.filter((e) => e.name === 'gzip');
    const pick = (accept: string | undefined, available: typeof both | typeof gzipOnly = both) => chooseEncoding(accept, available)?.name;
    expect(pick('gzip, deflate, br, zstd')).toBe('br');
    expect(pick('gzip, deflate')).toBe('gzip');
    expect(pick('br;q=0.5, gzip')).toBe('gzip');
    expect(pick('br;q=0, gzip;q=0')).toBeUndefined();
    expect(pick('*')).toBe('br');
    expect(pick('*;q=0.1, br;q=0')).toBe('gzip');
    expect(pick('x-gzip')).toBe('gzip');
    expect(pick('identity')).toBeUndefined();
    expect(pick('')).toBeUndefined();
    expect(pick(undefined)).toBeUndefined();
    expect(pick('gzip, br', gzipOnly)).toBe('gzip');
    expect(pick('br', gzipOnly)).toBeUndefined();
  });

  it('compresses text assets only, and never serves a sibling by its own name', () => {
    for (const name of ['main.2112ee4e.js', 'index.html', 'main.css', 'mf-manifest.json', 'main.js.map', 'logo.svg'])
      expect({ name, c: isCompressible(name) }).toEqual({ name, c: true });
    for (const name of ['poster.png', 'font.woff2', 'favicon.ico', 'main.js.br'])
      expect({ name, c: isCompressible(name) }).toEqual({ name, c: false });
    expect(isPrecompressedSibling('/dist/js/main.2112ee4e.js.br')).toBe(true);
    expect(isPrecompressedSibling('/dist/index.html.gz')).toBe(true);
    expect(isPrecompressedSibling('/dist/archive.tar.gz')).toBe(false);
    expect(isPrecompressedSibling('/dist/index.html')).toBe(false);
  });
});

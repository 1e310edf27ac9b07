// GET /media/* through the running gateway, from a temporary filesystem storage root.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mediaKeys } from '@clipit/contracts';
import { FsStorageDriver } from '@clipit/storage';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

describe('GET /media/*', () => {
  let h: GatewayHarness;
  const bytes = randomBytes(10_000);
  const key = 'profile-images/5c1d7c4e-aaaa-4bbb-8ccc-0123456789ab.png';
  const videoId = '0f4b2a9e-1111-4222-8333-0123456789ab';

  beforeAll(async () => {
    h = await startGateway();
    const storage = new FsStorageDriver(h.storageRoot);
    await storage.put(key, bytes, 'image/png');
    await storage.put('banner-images/zero.bin', Buffer.alloc(0), 'application/octet-stream');
    await storage.put('profile-images/evil.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    // A raw upload, as a client PUT it before the media worker checked it, and what the worker published.
    await storage.put(mediaKeys.upload(videoId), Buffer.from('<html><script>alert(1)</script></html>'), 'video/mp4');
    await storage.put(mediaKeys.poster(videoId), Buffer.from('poster bytes'), 'image/jpeg');
    await storage.put(mediaKeys.video(videoId), Buffer.from('video bytes'), 'video/mp4');
    await storage.put('other/thing.bin', Buffer.from('not published'), 'application/octet-stream');
    // A file outside the storage root, which no key may reach.
    await writeFile(join(h.storageRoot, '..', 'clipit-outside-root.txt'), 'secret');
  });

  afterAll(async () => {
    await h.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.url}${path}`, { headers });

  it('serves the whole object with type, length, validators and a long immutable cache', async () => {
    const res = await get(`/media/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe('10000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN();
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${h.url}/media/${key}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('10000');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 304 to If-None-Match and If-Modified-Since with the current version', async () => {
    const first = await get(`/media/${key}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const byTag = await get(`/media/${key}`, { 'if-none-match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect((await byTag.arrayBuffer()).byteLength).toBe(0);
    const byDate = await get(`/media/${key}`, { 'if-modified-since': first.headers.get('last-modified')! });
    expect(byDate.status).toBe(304);
    const stale = await get(`/media/${key}`, { 'if-none-match': '"stale"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=9990-', 9990, 9999],
    ['bytes=-10', 9990, 9999],
    ['bytes=5000-999999', 5000, 9999],
  ])('answers the single range %s with 206 and Content-Range', async (range, start, end) => {
    const res = await get(`/media/${key}`, { range });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/10000`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 with the size when the range starts past the end', async () => {
    const res = await get(`/media/${key}`, { range: 'bytes=10000-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */10000');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('Requested range not satisfiable');
  });

  it('sends the whole object for several ranges, or a Range for an older version (If-Range)', async () => {
    const multi = await get(`/media/${key}`, { range: 'bytes=0-1,5-6' });
    expect(multi.status).toBe(200);
    expect((await multi.arrayBuffer()).byteLength).toBe(10000);
    const old = await get(`/media/${key}`, { range: 'bytes=0-9', 'if-range': '"older"' });
    expect(old.status).toBe(200);
    await old.arrayBuffer();
  });

  it('serves an empty object', async () => {
    const res = await get('/media/banner-images/zero.bin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('sandboxes whatever it serves, so a stored page cannot script the origin', async () => {
    const res = await get('/media/profile-images/evil.html');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await res.arrayBuffer();
  });

  it('serves what the media worker published: the poster and the processed video', async () => {
    const poster = await get(`/media/${mediaKeys.poster(videoId)}`);
    expect({ status: poster.status, type: poster.headers.get('content-type') }).toEqual({ status: 200, type: 'image/jpeg' });
    expect(await poster.text()).toBe('poster bytes');
    const video = await get(`/media/${mediaKeys.video(videoId)}`, { range: 'bytes=0-4' });
    expect(video.status).toBe(206);
    expect(await video.text()).toBe('video');
  });

  it.each([
    `/media/${mediaKeys.upload(videoId)}`,
    `/media/uploads/${videoId}?download=1`,
    `/media/uploads%2f${videoId}`,
    `/media/videos/..%2fuploads/${videoId}`,
    `/media/videos/../uploads/${videoId}`,
    `/media/profile-images/..%2f${mediaKeys.upload(videoId)}`,
    '/media/other/thing.bin',
    '/media/videos/',
  ])('answers 404 Not found for %s, an object that is not published (raw uploads stay private)', async (path) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${h.url}${path}`, { method, headers: { range: 'bytes=0-3' } });
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      if (method === 'GET') expect(await res.text()).toBe('Not found');
      else await res.arrayBuffer();
    }
  });

  it.each([
    '/media/profile-images/missing.png',
    '/media/%2e%2e/clipit-outside-root.txt',
    '/media/..%2fclipit-outside-root.txt',
    '/media/profile-images/..%2f..%2fclipit-outside-root.txt',
    '/media/.hidden',
    '/media/a//b.png',
    '/media/',
    `/media/profile-images/${key.split('/')[1]}.meta`,
  ])('answers 404 text for %s (missing, traversal or not a key)', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(text.length).toBeGreaterThan(0);
  });
});

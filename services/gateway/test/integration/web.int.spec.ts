// The web app as the gateway serves it, from temporary folders standing in for the builds: the shell at
// the root with its index.html for every page path, each remote under /remotes/<name>/, GET /remotes.json,
// cache headers by file kind, and text 404s for everything that is not a page.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

/** A remote's video (the sample clips of /client-services): bytes whose every position is known. */
const VIDEO = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
const INDEX = '<!doctype html><html><head><title>CLIP IT</title></head><body><div id="root"></div></body></html>';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const BIG = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};`;

async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function expectText(res: Response, status: number, text: string) {
  expect({ status: res.status, type: res.headers.get('content-type'), body: await res.text() }).toEqual({
    status,
    type: 'text/plain; charset=utf-8',
    body: text,
  });
}

describe('the web app (shell, remotes, /remotes.json)', () => {
  let dir: string;
  let h: GatewayHarness;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.url}${path}`, { headers });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-web-'));
    await writeFiles(join(dir, 'shell'), {
      'index.html': INDEX,
      'js/main.2112ee4e.js': 'console.log("shell")',
      'js/main.2112ee4e.js.map': '{}',
      'css/main.0a1b2c3d.css': 'body{}',
      'favicon.ico': 'ico',
      // Precompressed as the build leaves them (an asset, the index), and one with a sibling left stale.
      'js/big.0123abcd.js': BIG,
      'js/big.0123abcd.js.br': brotliCompressSync(BIG),
      'js/big.0123abcd.js.gz': gzipSync(BIG),
      'js/stale.0123abcd.js': BIG,
      'js/stale.0123abcd.js.gz': gzipSync('an earlier build'),
    });
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dir, 'shell', 'js/stale.0123abcd.js.gz'), old, old);
    await writeFiles(join(dir, 'remotes', 'public'), {
      'remoteEntry.js': 'var clipit_public;',
      'mf-manifest.json': '{"name":"clipit_public"}',
      'js/__federation_expose_routes.ab350df2.js': 'routes',
      'assets/sample-clip.0123abcd.mp4': VIDEO,
      // A remote's own page (a build may leave one): HTML like the shell's.
      'index.html': INDEX,
    });
    h = await startGateway({
      FRONTEND_SHELL_DIR: join(dir, 'shell'),
      FRONTEND_REMOTES_DIR: join(dir, 'remotes'),
      FRONTEND_REMOTES: '{"admin":"https://cdn.example/admin/mf-manifest.json"}',
    });
  });

  afterAll(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers / and every page path with the shell’s index.html, revalidated on every use', async () => {
    for (const path of ['/', '/login', '/feed', '/clipper/42', '/nope', '/discover?tab=streamers']) {
      const res = await get(path, html);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // What the shell reads first, preloaded: /remotes.json (this public build lists no pages, so no page's files).
      expect(res.headers.get('link')).toBe('</remotes.json>; rel=preload; as=fetch; crossorigin');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('puts a strict Content-Security-Policy and a Permissions-Policy on every HTML answer (docs/adr/0036)', async () => {
    const answers = [
      ...(await Promise.all(['/', '/guide', '/clippers/dashboard', '/admin', '/nope'].map((path) => get(path, html)))),
      await get('/index.html'),
      await get('/remotes/public/index.html'),
      // A revalidation answers the same policy.
      await get('/', { ...html, 'if-none-match': (await get('/', html)).headers.get('etag')! }),
    ];
    for (const res of answers) {
      expect(res.status === 200 || res.status === 304).toBe(true);
      const csp = res.headers.get('content-security-policy');
      expect(csp).not.toBeNull();
      const policy = new Map(
        csp!.split(';').map((d) => {
          const [name = '', ...sources] = d.trim().split(/\s+/);
          return [name, sources] as const;
        }),
      );
      // Scripts and styles only from files served here, or from the remote FRONTEND_REMOTES puts on a CDN; nothing inline.
      expect(policy.get('script-src')).toEqual(["'self'", 'https://cdn.example']);
      expect(policy.get('style-src')).toEqual(["'self'", 'https://cdn.example']);
      expect(policy.get('connect-src')).toEqual(["'self'", 'https://cdn.example']);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('img-src')).toEqual([
        "'self'",
        'https://cdn.example',
        'data:',
        'blob:',
        'https://pbs.twimg.com',
        'https://abs.twimg.com',
      ]);
      // A remote's own videos (the sample clips) come from wherever the remote is served.
      expect(policy.get('media-src')).toEqual(["'self'", 'https://cdn.example', 'blob:']);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      const permissions = res.headers.get('permissions-policy')!;
      for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()', 'display-capture=()'])
        expect(permissions.split(', ')).toContain(denied);
      for (const kept of ['fullscreen=(self)', 'autoplay=(self)', 'clipboard-write=(self)'])
        expect(permissions.split(', ')).toContain(kept);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
  });

  it('preloads the files of the page’s own remote with its HTML, from that remote’s manifest, re-read when rebuilt', async () => {
    const manifest = (screen: string) =>
      JSON.stringify({
        name: 'clipit_dashboard',
        metaData: {
          remoteEntry: { name: 'remoteEntry.js', path: '' },
          clipit: { pages: [{ path: '/clippers/:step', title: 'T', description: 'D', assets: [`js/${screen}.js`, `css/${screen}.css`] }] },
        },
        exposes: [{ path: './routes', assets: { js: { sync: ['js/routes.1.js'] } } }],
      });
    await writeFiles(join(dir, 'remotes', 'dashboard'), { 'mf-manifest.json': manifest('7.aaaaaaaa') });
    const links = async (path: string) => (await get(path, html)).headers.get('link')?.split(', ').slice(1);
    expect(await links('/clippers/auth')).toEqual([
      '</remotes/dashboard/remoteEntry.js>; rel=preload; as=script',
      '</remotes/dashboard/js/routes.1.js>; rel=preload; as=script',
      '</remotes/dashboard/js/7.aaaaaaaa.js>; rel=preload; as=script',
      '</remotes/dashboard/css/7.aaaaaaaa.css>; rel=preload; as=style',
    ]);
    // A path no page matches preloads no remote's files.
    expect(await links('/feed')).toEqual([]);
    // Rebuilt: the next page load gets the new files.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFiles(join(dir, 'remotes', 'dashboard'), { 'mf-manifest.json': manifest('8.bbbbbbbb') });
    expect((await links('/clippers/apply'))?.at(-1)).toBe('</remotes/dashboard/css/8.bbbbbbbb.css>; rel=preload; as=style');
    await rm(join(dir, 'remotes', 'dashboard'), { recursive: true, force: true });
  });

  it("puts the shell's startup files first, and a page's API reads last at its plain address", async () => {
    await writeFiles(join(dir, 'shell'), {
      'startup.json': JSON.stringify({ files: ['js/main.2112ee4e.js', 'css/main.0a1b2c3d.css', '../secret.js'] }),
    });
    await writeFiles(join(dir, 'remotes', 'dashboard'), {
      'mf-manifest.json': JSON.stringify({
        name: 'clipit_dashboard',
        metaData: {
          remoteEntry: { name: 'remoteEntry.js', path: '' },
          clipit: {
            pages: [{ path: '/clipper/:userId', title: 'T', description: 'D', assets: ['js/9.c.js'], reads: ['/api/clipper/:userId'] }],
          },
        },
      }),
    });
    const links = async (path: string) => (await get(path, html)).headers.get('link')?.split(', ');
    const page = await links('/clipper/u%201');
    // The shell's own code first (a path outside its folder is not listed), then what it reads, then the page's.
    expect(page?.slice(0, 3)).toEqual([
      '</js/main.2112ee4e.js>; rel=preload; as=script',
      '</css/main.0a1b2c3d.css>; rel=preload; as=style',
      '</remotes.json>; rel=preload; as=fetch; crossorigin',
    ]);
    expect(page?.at(-1)).toBe('</api/clipper/u%201>; rel=preload; as=fetch; crossorigin=use-credentials');
    // With a query string the screen may read something else: no API preloads.
    expect((await links('/clipper/u1?tab=clips'))?.at(-1)).toBe('</remotes/dashboard/js/9.c.js>; rel=preload; as=script');
    // The shell gets the manifests of the remotes served here with /remotes.json, instead of fetching them.
    const document = (await (await get('/remotes.json')).json()) as { manifests: Record<string, { metaData: { clipit: unknown } }> };
    expect(Object.keys(document.manifests).sort()).toEqual(['dashboard', 'public']);
    expect(document.manifests['dashboard']!.metaData.clipit).toEqual({
      pages: [{ path: '/clipper/:userId', title: 'T', description: 'D', assets: ['js/9.c.js'], reads: ['/api/clipper/:userId'] }],
    });
    await rm(join(dir, 'shell', 'startup.json'));
    await rm(join(dir, 'remotes', 'dashboard'), { recursive: true, force: true });
  });

  it('sends a text asset precompressed when the browser accepts it: brotli first, then gzip, each with its own ETag', async () => {
    const size = async (name: string) => String((await stat(join(dir, 'shell', name))).size);
    const br = await get('/js/big.0123abcd.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers.get('content-encoding'), br.headers.get('content-length')]).toEqual([
      200,
      'br',
      await size('js/big.0123abcd.js.br'),
    ]);
    expect([br.headers.get('content-type'), br.headers.get('vary'), br.headers.get('cache-control')]).toEqual([
      'text/javascript; charset=utf-8',
      'Accept-Encoding',
      IMMUTABLE,
    ]);
    expect(await br.text()).toBe(BIG);
    const gz = await get('/js/big.0123abcd.js', { 'accept-encoding': 'gzip' });
    expect([gz.headers.get('content-encoding'), gz.headers.get('content-length')]).toEqual(['gzip', await size('js/big.0123abcd.js.gz')]);
    expect(await gz.text()).toBe(BIG);
    const plain = await get('/js/big.0123abcd.js', { 'accept-encoding': 'identity' });
    expect([plain.headers.get('content-encoding'), plain.headers.get('content-length'), plain.headers.get('vary')]).toEqual([
      null,
      String(BIG.length),
      'Accept-Encoding',
    ]);
    expect(new Set([br.headers.get('etag'), gz.headers.get('etag'), plain.headers.get('etag')]).size).toBe(3);
    // Revalidated per encoding.
    expect((await get('/js/big.0123abcd.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.get('etag')! })).status).toBe(304);
    expect((await get('/js/big.0123abcd.js', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.get('etag')! })).status).toBe(200);
    // HEAD says what GET would send.
    const head = await fetch(`${h.url}/js/big.0123abcd.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect([head.headers.get('content-encoding'), head.headers.get('content-length')]).toEqual(['br', await size('js/big.0123abcd.js.br')]);
  });

  it('never sends a sibling older than its file, nor a sibling by its own name', async () => {
    const stale = await get('/js/stale.0123abcd.js', { 'accept-encoding': 'gzip' });
    expect([stale.headers.get('content-encoding'), await stale.text()]).toEqual([null, BIG]);
    await expectText(await get('/js/big.0123abcd.js.br'), 404, 'Not found');
    await expectText(await get('/js/big.0123abcd.js.gz'), 404, 'Not found');
  });

  it('serves hashed assets for a year, immutable, with their type', async () => {
    const js = await get('/js/main.2112ee4e.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(js.headers.get('content-length')).toBe(String('console.log("shell")'.length));
    expect(await js.text()).toBe('console.log("shell")');
    const css = await get('/css/main.0a1b2c3d.css');
    expect([css.headers.get('content-type'), css.headers.get('cache-control')]).toEqual(['text/css; charset=utf-8', IMMUTABLE]);
    await css.arrayBuffer();
    const map = await get('/js/main.2112ee4e.js.map');
    expect([map.headers.get('content-type'), map.headers.get('cache-control')]).toEqual(['application/json; charset=utf-8', IMMUTABLE]);
    await map.arrayBuffer();
    // A file without a hash in its name is not promised to stay the same.
    const icon = await get('/favicon.ico');
    expect([icon.headers.get('content-type'), icon.headers.get('cache-control')]).toEqual(['image/x-icon', 'no-cache']);
    await icon.arrayBuffer();
  });

  it('serves a remote’s video whole or in a byte range (206 with those bytes), 416 past its end, cached for good', async () => {
    const path = '/remotes/public/assets/sample-clip.0123abcd.mp4';
    const whole = await get(path);
    expect([
      whole.status,
      whole.headers.get('content-type'),
      whole.headers.get('accept-ranges'),
      whole.headers.get('cache-control'),
    ]).toEqual([200, 'video/mp4', 'bytes', IMMUTABLE]);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(VIDEO);
    const etag = whole.headers.get('etag')!;

    const part = await get(path, { range: 'bytes=10-19' });
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-length'), part.headers.get('content-type')]).toEqual([
      206,
      `bytes 10-19/${VIDEO.length}`,
      '10',
      'video/mp4',
    ]);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(VIDEO.subarray(10, 20));
    // What a <video> asks first (the whole file from byte 0), and a suffix.
    const open = await get(path, { range: 'bytes=0-' });
    expect([open.status, open.headers.get('content-range')]).toEqual([206, `bytes 0-299/${VIDEO.length}`]);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(VIDEO);
    const tail = await get(path, { range: 'bytes=-5' });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(VIDEO.subarray(295));
    // If-Range naming this version keeps the range; another version gets the whole file.
    expect((await get(path, { range: 'bytes=0-1', 'if-range': etag })).status).toBe(206);
    const changed = await get(path, { range: 'bytes=0-1', 'if-range': '"another-version"' });
    expect([changed.status, (await changed.arrayBuffer()).byteLength]).toEqual([200, VIDEO.length]);

    const past = await get(path, { range: `bytes=${VIDEO.length}-` });
    expect(past.headers.get('content-range')).toBe(`bytes */${VIDEO.length}`);
    await expectText(past, 416, 'Requested range not satisfiable');
    // A text asset is never cut: its bytes depend on the encoding chosen.
    const js = await get('/js/main.2112ee4e.js', { range: 'bytes=0-1' });
    expect([js.status, js.headers.get('accept-ranges'), await js.text()]).toEqual([200, null, 'console.log("shell")']);
  });

  it('answers 304 when the browser’s copy is current', async () => {
    const first = await get('/', html);
    await first.text();
    const again = await get('/', { ...html, 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves a remote’s build under /remotes/<name>/: entry and manifest revalidated, chunks immutable', async () => {
    const manifest = await get('/remotes/public/mf-manifest.json');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
    expect(await manifest.json()).toEqual({ name: 'clipit_public' });
    const entry = await get('/remotes/public/remoteEntry.js');
    expect([entry.status, entry.headers.get('content-type'), entry.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'no-cache',
    ]);
    await entry.text();
    const chunk = await get('/remotes/public/js/__federation_expose_routes.ab350df2.js');
    expect([chunk.status, chunk.headers.get('cache-control')]).toEqual([200, IMMUTABLE]);
    await chunk.text();
  });

  it('answers GET /remotes.json never cached: the defaults here, FRONTEND_REMOTES on top, with the manifests it serves', async () => {
    const res = await get('/remotes.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      remotes: {
        public: '/remotes/public/mf-manifest.json',
        dashboard: '/remotes/dashboard/mf-manifest.json',
        admin: 'https://cdn.example/admin/mf-manifest.json',
      },
      // public is built here; dashboard is not, admin is on a CDN.
      manifests: { public: { name: 'clipit_public' } },
    });
  });

  it('answers 404 in text for a missing asset, a missing remote file, an unknown remote or a traversal', async () => {
    for (const path of [
      '/js/main.deadbeef.js',
      '/remotes/public/js/gone.12345678.js',
      '/remotes/public/remoteEntry.js.bak',
      '/remotes/dashboard/mf-manifest.json',
      '/remotes/nope/mf-manifest.json',
      '/remotes/public/',
      '/remotes/public/..%2F..%2Fshell%2Findex.html',
      '/remotes/public/%2e%2e/%2e%2e/shell/index.html',
    ]) {
      const res = await get(path, html);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'text/plain; charset=utf-8',
      });
      expect(await res.text()).toBe('Not found');
    }
  });

  it('never answers HTML for API, media, health or metrics paths', async () => {
    await expectText(await get('/api/nope', html), 404, 'No such route: GET /api/nope');
    await expectText(await get('/api', html), 404, 'No such route: GET /api');
    await expectText(await get('/health/nope', html), 404, 'No such route: GET /health/nope');
    await expectText(await get('/metrics/nope', html), 404, 'No such route: GET /metrics/nope');
    await expectText(await get('/remotes', html), 404, 'No such route: GET /remotes');
  });

  it('answers 404 in text to a client that does not take HTML', async () => {
    await expectText(await get('/login', { accept: 'application/json' }), 404, 'No such route: GET /login');
    const res = await get('/login', { accept: '*/*' });
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await res.text();
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await fetch(`${h.url}/`, { method: 'HEAD', headers: html });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(INDEX.length));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('the web app before it is built', () => {
  let h: GatewayHarness;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-web-empty-'));
    h = await startGateway({ FRONTEND_SHELL_DIR: join(dir, 'shell'), FRONTEND_REMOTES_DIR: join(dir, 'remotes') });
  });

  afterAll(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('says how to build it, on / and on every page path', async () => {
    for (const path of ['/', '/feed']) {
      const res = await fetch(`${h.url}${path}`, { headers: html });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectText(res, 503, 'The web app is not built: run npm run build:web');
    }
  });

  it('still answers the API and /remotes.json', async () => {
    const res = await fetch(`${h.url}/remotes.json`);
    expect(res.status).toBe(200);
    await res.json();
    await expectText(await fetch(`${h.url}/api/nope`), 404, 'No such route: GET /api/nope');
  });
});

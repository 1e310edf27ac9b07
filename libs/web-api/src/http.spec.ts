import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiJson, apiRequest, BUSY_RETRY, configureHttp, getQueryFn, HttpError, pathFromQueryKey } from './http.js';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  authorization: string | undefined;
  traceparent: string | string[] | undefined;
  body: string;
}

describe('the web apps’ HTTP contract (against a real HTTP server)', () => {
  let server: Server;
  const seen: Seen[] = [];
  const inits: RequestInit[] = [];
  const busyCalls = new Map<string, number>();
  const busyWait = new Map<string, string>();
  /** A route busy for its first `times` calls, each answered with `retryAfter` (none when undefined). */
  const busyRoute = (name: string, times: number, retryAfter: string | undefined) => {
    if (retryAfter !== undefined) busyWait.set(name, retryAfter);
    return `/api/busy/${name}/${times}`;
  };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          contentType: req.headers['content-type'],
          authorization: req.headers.authorization,
          traceparent: req.headers.traceparent,
          body,
        });
        const busy = /^\/api\/busy\/(\w+)\/(\d+)$/.exec(req.url!);
        if (busy) {
          // /api/busy/<name>/<n>: 503 with the Retry-After ?wait= asks (or none), the first n calls to <name>; then 201.
          const count = (busyCalls.get(busy[1]!) ?? 0) + 1;
          busyCalls.set(busy[1]!, count);
          const retryAfter = busyWait.get(busy[1]!);
          if (count <= Number(busy[2]))
            res
              .writeHead(503, {
                'content-type': 'text/plain; charset=utf-8',
                ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
              })
              .end(`Too many sign-ins right now; please try again in ${retryAfter ?? '?'} seconds`);
          else res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ signedIn: count }));
        } else if (req.url === '/api/bad') {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Please enter a valid email address');
        } else if (req.url === '/api/empty-error') {
          res.writeHead(503).end();
        } else if (req.url === '/api/user/me') {
          res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' }).end('Not signed in');
        } else if (req.url === '/api/nothing') {
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    configureHttp({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      fetch: (input, init) => {
        inits.push(init ?? {});
        return fetch(input, init);
      },
    });
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('sends credentials with every call', async () => {
    await apiRequest('POST', '/api/ok', { a: 1 });
    await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/tokens'] });
    expect(inits.slice(-2).map((i) => i.credentials)).toEqual(['include', 'include']);
  });

  it('sends JSON bodies as JSON and form data as multipart, untouched', async () => {
    await apiRequest('POST', '/api/json', { walletAddress: 'abc' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', contentType: 'application/json', body: '{"walletAddress":"abc"}' });
    const form = new FormData();
    form.append('submissionId', '42');
    await apiRequest('POST', '/api/form', form);
    expect(seen.at(-1)!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.at(-1)!.body).toContain('name="submissionId"');
  });

  it('adds a call’s own headers (the admin bearer) beside the JSON content type', async () => {
    await expect(apiJson('POST', '/api/admin/thing', { a: 1 }, { headers: { Authorization: 'Bearer t0k' } })).resolves.toEqual({
      path: '/api/admin/thing',
    });
    expect(seen.at(-1)).toMatchObject({ contentType: 'application/json', authorization: 'Bearer t0k', body: '{"a":1}' });
    await apiJson('GET', '/api/admin/list', undefined, { headers: { Authorization: 'Bearer t0k' } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', contentType: undefined, authorization: 'Bearer t0k' });
    await apiRequest('GET', '/api/plain');
    expect(seen.at(-1)!.authorization).toBeUndefined();
  });

  it('raises "status: text" for a non-OK answer, and the status text when the body is empty', async () => {
    await expect(apiRequest('POST', '/api/bad', {})).rejects.toThrow(new HttpError(400, 'Please enter a valid email address'));
    await expect(apiRequest('POST', '/api/bad', {})).rejects.toThrow('400: Please enter a valid email address');
    await expect(apiRequest('GET', '/api/empty-error')).rejects.toThrow('503: Service Unavailable');
  });

  describe('a 503 with Retry-After, on a call made with retryBusy (ADR 0044)', () => {
    it('is sent again after the seconds it asks, the same body, and answers what the retry got', async () => {
      const url = busyRoute('once', 1, '1');
      const started = Date.now();
      await expect(apiJson('POST', url, { twitterHandle: 'alice' }, { retryBusy: true })).resolves.toEqual({ signedIn: 2 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      const sent = seen.filter((r) => r.url === url);
      expect(sent.map((r) => r.body)).toEqual(['{"twitterHandle":"alice"}', '{"twitterHandle":"alice"}']);
      const form = new FormData();
      form.append('twitterHandle', 'bob');
      await expect(apiJson('POST', busyRoute('form', 1, '0'), form, { retryBusy: true })).resolves.toEqual({ signedIn: 2 });
      expect(seen.filter((r) => r.url === busyRoute('form', 1, '0')).every((r) => r.body.includes('name="twitterHandle"'))).toBe(true);
    });

    it(`gives up after ${BUSY_RETRY.retries} retries with the server's text and its Retry-After`, async () => {
      const url = busyRoute('always', 99, '0');
      const err = await apiJson('POST', url, {}, { retryBusy: true }).catch((e: unknown) => e);
      expect(err).toEqual(new HttpError(503, 'Too many sign-ins right now; please try again in 0 seconds'));
      expect((err as HttpError).retryAfterSeconds).toBe(0);
      expect(seen.filter((r) => r.url === url)).toHaveLength(1 + BUSY_RETRY.retries);
    });

    it('is not retried without retryBusy, without a Retry-After, or when the wait is longer than a person should sit through', async () => {
      const plain = busyRoute('plain', 99, '0');
      await expect(apiJson('POST', plain, {})).rejects.toThrow('503: Too many sign-ins right now');
      const bare = busyRoute('bare', 99, undefined);
      await expect(apiJson('POST', bare, {}, { retryBusy: true })).rejects.toThrow('503: Too many sign-ins right now');
      const long = busyRoute('long', 99, String(BUSY_RETRY.maxWaitSeconds + 1));
      await expect(apiJson('POST', long, {}, { retryBusy: true })).rejects.toThrow(`try again in ${BUSY_RETRY.maxWaitSeconds + 1} seconds`);
      for (const url of [plain, bare, long]) expect(seen.filter((r) => r.url === url)).toHaveLength(1);
    });
  });

  it('sends a well-formed W3C traceparent with every call: a fresh trace each call, a busy retry in the same trace', async () => {
    const from = seen.length;
    await apiRequest('POST', '/api/ok', { a: 1 });
    await apiJson('GET', '/api/list');
    await apiRequest('DELETE', '/api/nothing', undefined, { headers: { Authorization: 'Bearer t0k' } });
    await apiRequest('POST', '/api/bad', {}).catch(() => undefined);
    await getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/user/me'] });
    await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/tokens'] });
    const retried = busyRoute('traced', 1, '0');
    await apiJson('POST', retried, {}, { retryBusy: true });
    const sent = seen.slice(from);
    expect(sent).toHaveLength(8);
    const W3C = /^00-(?!0{32})([\da-f]{32})-(?!0{16})([\da-f]{16})-01$/;
    const parts = sent.map((r) => {
      expect(typeof r.traceparent).toBe('string');
      const m = W3C.exec(r.traceparent as string);
      expect({ url: r.url, traceparent: r.traceparent, wellFormed: m !== null }).toEqual({
        url: r.url,
        traceparent: r.traceparent,
        wellFormed: true,
      });
      return { url: r.url, traceId: m![1]!, spanId: m![2]! };
    });
    const [first, again] = parts.filter((p) => p.url === retried);
    expect(first!.traceId).toBe(again!.traceId);
    expect(first!.spanId).not.toBe(again!.spanId);
    const calls = parts.filter((p) => p !== again);
    expect(new Set(calls.map((p) => p.traceId)).size).toBe(calls.length);
    expect(new Set(parts.map((p) => p.spanId)).size).toBe(parts.length);
  });

  it('joins GET query keys into the path', async () => {
    expect(pathFromQueryKey(['/api/clipper', 'u-1'])).toBe('/api/clipper/u-1');
    expect(await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/creators', 'clippers'] })).toEqual({ path: '/api/creators/clippers' });
  });

  it('raises on 401 by default, or answers null when asked', async () => {
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/user/me'] })).rejects.toThrow('401: Not signed in');
    expect(await getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/user/me'] })).toBeNull();
  });

  it('answers parsed JSON, or undefined for an empty body', async () => {
    expect(await apiJson('GET', '/api/x')).toEqual({ path: '/api/x' });
    expect(await apiJson('DELETE', '/api/nothing')).toBeUndefined();
  });
});

/** A Response whose body says whether it was read to the end or cancelled (nothing is pulled before a reader asks). */
function trackedResponse(status: number, text: string, contentType = 'text/plain; charset=utf-8') {
  const seen = { read: false, cancelled: false };
  const bytes = new TextEncoder().encode(text);
  let sent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sent && bytes.length > 0) {
          sent = true;
          controller.enqueue(bytes);
          return;
        }
        seen.read = true;
        controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { status, headers: { 'content-type': contentType } }), seen };
}

describe('every answer’s body is read or cancelled (an open body keeps the browser’s request open)', () => {
  let next: ReturnType<typeof trackedResponse>;
  beforeAll(() => {
    configureHttp({ baseUrl: '', fetch: () => Promise.resolve(next.response) });
  });
  const answer = (status: number, text: string, contentType?: string) => {
    next = trackedResponse(status, text, contentType);
    return next.seen;
  };
  const released = (seen: { read: boolean; cancelled: boolean }) => seen.read || seen.cancelled;

  it('the tracker itself: an untouched body is neither read nor cancelled', () => {
    expect(answer(401, 'Not signed in')).toEqual({ read: false, cancelled: false });
  });

  it('a 401 taken as "signed out" (GET /api/user/me)', async () => {
    const seen = answer(401, 'Not signed in');
    expect(await getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/user/me'] })).toBeNull();
    expect(released(seen)).toBe(true);
  });

  it('non-OK answers: read to the end for their message', async () => {
    let seen = answer(401, 'Not signed in');
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/user/me'] })).rejects.toThrow('401: Not signed in');
    expect(seen.read).toBe(true);
    seen = answer(429, 'Too many submissions');
    await expect(apiJson('POST', '/api/submissions', {})).rejects.toThrow('429: Too many submissions');
    expect(seen.read).toBe(true);
    seen = answer(503, '');
    await expect(apiRequest('POST', '/api/logout')).rejects.toThrow('503: ');
    expect(seen.read).toBe(true);
  });

  it('OK answers: JSON read, empty bodies read, answers nobody reads released', async () => {
    let seen = answer(200, '{"a":1}', 'application/json');
    expect(await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/tokens'] })).toEqual({ a: 1 });
    expect(seen.read).toBe(true);
    seen = answer(200, '', 'application/json');
    expect(await apiJson('DELETE', '/api/x')).toBeUndefined();
    expect(seen.read).toBe(true);
    seen = answer(200, '{"ok":true}', 'application/json');
    await expect(apiRequest('POST', '/api/logout')).resolves.toBeUndefined();
    expect(released(seen)).toBe(true);
  });

  it('a 204 has no body to hold open', async () => {
    next = { response: new Response(null, { status: 204 }), seen: { read: true, cancelled: false } };
    await expect(apiRequest('POST', '/api/follow/u-1')).resolves.toBeUndefined();
    expect(await apiJson('POST', '/api/follow/u-1')).toBeUndefined();
  });
});

/**
 * The one way the web apps call the gateway (spec 01 §7, 02 §7): every call sends credentials
 * (the session cookie); JSON bodies are serialised, FormData goes as it is; any non-OK answer
 * becomes an Error whose message is "status: text" (the status text when the body is empty),
 * which the screens show in their toasts.
 *
 * Every call carries a fresh W3C `traceparent` ({@link newTraceparent}), so the gateway's trace of it starts
 * from the browser's ids.
 *
 * Every answer's body is read or cancelled before these functions return: a body left alone keeps
 * the request open in the browser (Chromium never reaches network-idle, and the connection is not
 * reused), so none leaves here unconsumed.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    /** A 503's Retry-After in whole seconds, when it had one (the server was busy and said when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status}: ${text}`);
    this.name = 'HttpError';
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

let baseUrl = '';
let fetchImpl: FetchLike = (input, init) => fetch(input, init);

/** For tests and non-browser callers: where the gateway is, and which fetch to use. */
export function configureHttp(options: { baseUrl?: string; fetch?: FetchLike }): void {
  if (options.baseUrl !== undefined) baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (options.fetch) fetchImpl = options.fetch;
}

/** Throws an HttpError for any non-OK answer, having read its body (the message) to the end. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new HttpError(res.status, text, busyRetryAfter(res));
}

/**
 * ADR 0044: a call made with `retryBusy` that is answered 503 with a Retry-After is sent again after
 * that many seconds, at most `retries` times; a wait longer than `maxWaitSeconds` is not waited for (the
 * person reads the server's text and decides). Meanwhile the caller's promise is pending: the form stays busy.
 */
export const BUSY_RETRY = { retries: 3, maxWaitSeconds: 60 } as const;

/** The seconds a 503 asks to wait before trying again (Retry-After in delta-seconds), else undefined. */
export function busyRetryAfter(res: Response): number | undefined {
  if (res.status !== 503) return undefined;
  const raw = res.headers?.get('retry-after')?.trim();
  return raw && /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Lets go of an answer nobody reads (204, a 401 taken as "signed out", a result the caller ignores). */
export async function discardBody(res: Response): Promise<void> {
  if (!res.body || res.bodyUsed) return;
  // A stream already errored or closed has nothing left to release.
  await res.body.cancel().catch(() => undefined);
}

/** What a call may add: headers of its own (the admin area's `Authorization: Bearer <token>`). */
export interface CallOptions {
  headers?: Record<string, string>;
  /**
   * Try again after a 503's Retry-After (BUSY_RETRY): for calls the server refuses at once when busy,
   * having done nothing (sign-up, log-in, reset request; ADR 0044).
   */
  retryBusy?: boolean;
}

/** Random bytes as lowercase hex, never all zeros (W3C trace context calls an all-zero id invalid). */
function randomHex(bytes: number): string {
  for (;;) {
    const hex = Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
    if (/[^0]/.test(hex)) return hex;
  }
}

/**
 * A W3C `traceparent` for one request (ADR 0054): version 00, a fresh 16-byte trace id (or the call's, for a
 * retry of it), a fresh 8-byte parent id, and flag 01 (sampled). The browser records no spans: the trace
 * carries its id, and its first span is the gateway's, which keeps the trace or not by its own sampler.
 */
export function newTraceparent(traceId = randomHex(16)): string {
  return `00-${traceId}-${randomHex(8)}-01`;
}

/** Sends one call; a non-OK answer throws (its body read). The caller owns the OK answer's body. */
async function send(method: string, url: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  const headers: Record<string, string> = { ...options.headers };
  // One trace per call: a busy retry is another request of the same trace.
  const traceId = randomHex(16);
  if (body instanceof FormData) {
    init.body = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  for (let retries = 0; ; retries += 1) {
    init.headers = { ...headers, traceparent: newTraceparent(traceId) };
    const res = await fetchImpl(`${baseUrl}${url}`, init);
    const seconds = options.retryBusy && retries < BUSY_RETRY.retries ? busyRetryAfter(res) : undefined;
    if (seconds === undefined || seconds > BUSY_RETRY.maxWaitSeconds) {
      await throwIfResNotOk(res);
      return res;
    }
    await discardBody(res);
    await wait(seconds * 1000);
  }
}

/** A call whose answer is not needed: resolves once it succeeded, its body released. */
export async function apiRequest(method: string, url: string, body?: unknown, options?: CallOptions): Promise<void> {
  await discardBody(await send(method, url, body, options));
}

/** A call answering the parsed JSON body (or undefined for an empty one). */
export async function apiJson<T>(method: string, url: string, body?: unknown, options?: CallOptions): Promise<T> {
  return readJson<T>(await send(method, url, body, options));
}

async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GET query keys join their parts into the path: ['/api/clipper', id] → /api/clipper/<id>. */
export function pathFromQueryKey(queryKey: readonly unknown[]): string {
  return queryKey.map((part) => String(part)).join('/');
}

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** The default query function: GET the joined key; on 401 raise (the default) or answer null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const res = await fetchImpl(`${baseUrl}${pathFromQueryKey(queryKey)}`, {
      credentials: 'include',
      headers: { traceparent: newTraceparent() },
    });
    if (on401 === 'returnNull' && res.status === 401) {
      // Signed out is an answer, not an error; its text is not shown, but it must be let go of.
      await discardBody(res);
      return null;
    }
    await throwIfResNotOk(res);
    return readJson<T>(res);
  };
}

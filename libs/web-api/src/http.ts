/**
 * The one way the web apps call the gateway (spec 01 §7, 02 §7): every call sends credentials
 * (the session cookie); JSON bodies are serialised, FormData goes as it is; any non-OK answer
 * becomes an Error whose message is "status: text" (the status text when the body is empty),
 * which the screens show in their toasts.
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

/** Sends one call; a non-OK answer throws (its body read). The caller owns the OK answer's body. */
async function send(method: string, url: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  const headers: Record<string, string> = { ...options.headers };
  if (body instanceof FormData) {
    init.body = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (Object.keys(headers).length > 0) init.headers = headers;
  for (let retries = 0; ; retries += 1) {
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
    const res = await fetchImpl(`${baseUrl}${pathFromQueryKey(queryKey)}`, { credentials: 'include' });
    if (on401 === 'returnNull' && res.status === 401) {
      // Signed out is an answer, not an error; its text is not shown, but it must be let go of.
      await discardBody(res);
      return null;
    }
    await throwIfResNotOk(res);
    return readJson<T>(res);
  };
}

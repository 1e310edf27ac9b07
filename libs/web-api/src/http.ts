/**
 * The one way the web apps call the gateway (spec 01 §7, 02 §7): every call sends credentials
 * (the session cookie); JSON bodies are serialised, FormData goes as it is; any non-OK answer
 * becomes an Error whose message is "status: text" (the status text when the body is empty),
 * which the screens show in their toasts.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
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

/** Throws an HttpError for any non-OK answer. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new HttpError(res.status, text);
}

export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body instanceof FormData) {
    init.body = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetchImpl(`${baseUrl}${url}`, init);
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest, answering the parsed JSON body (or undefined for an empty one). */
export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
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
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

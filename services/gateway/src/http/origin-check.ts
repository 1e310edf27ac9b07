const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginCheckInput {
  method: string;
  /** The Origin header, if any. */
  origin: string | undefined;
  /** The Referer header, consulted only when Origin is absent. */
  referer: string | undefined;
  /** host[:port] the request was sent to (Host, or X-Forwarded-Host behind a trusted proxy). */
  host: string;
  /** The configured browser-facing origin (scheme://host[:port]); when set, only it is accepted. */
  publicOrigin: string | undefined;
  /**
   * The request carries the session cookie, and the route may act on it: the ambient credential a
   * browser attaches by itself. False for routes that authenticate by a token of their own (the
   * upload URL), and for requests without the cookie (bearer tokens, curl, server to server).
   */
  cookieBound: boolean;
}

/**
 * Whether a state-changing request may have been made by another site on a signed-in browser's behalf
 * (ADR 0004). Browsers send Origin on every cross-site POST/PUT/PATCH/DELETE (and fetch from our own
 * pages sends ours), so a foreign or opaque ("null") origin is refused. A write that carries the
 * session cookie must show where it comes from: with neither Origin nor Referer it is refused too
 * (privacy tools and odd redirects strip them; only our own pages may use the cookie). Without the
 * cookie nothing ambient is at stake: sign-up, log-in and reset from curl or a server, and bearer
 * tokens (a browser never attaches one by itself), pass without an Origin.
 */
export function isCrossSiteRequest(input: OriginCheckInput): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  const source = input.origin ?? input.referer;
  if (source === undefined || source === '') return input.cookieBound;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // "null" (sandboxed frames, file:// pages, some redirects) and garbage are not our pages.
    return true;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
  if (input.publicOrigin !== undefined) return url.origin !== input.publicOrigin;
  return url.host.toLowerCase() !== input.host.toLowerCase();
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether a Cookie header names `cookieName` with a value (read here: the cookie plugin parses later). */
export function hasCookie(header: string | undefined, cookieName: string): boolean {
  if (!header) return false;
  return header.split(';').some((pair) => {
    const eq = pair.indexOf('=');
    return eq > 0 && pair.slice(0, eq).trim() === cookieName && pair.slice(eq + 1).trim() !== '';
  });
}

export function originCheckInput(
  req: { method: string; headers: Record<string, string | string[] | undefined>; host: string },
  opts: { publicOrigin: string | undefined; sessionCookie: string; routeIgnoresCookie: boolean },
): OriginCheckInput {
  return {
    method: req.method,
    origin: firstHeader(req.headers['origin']),
    referer: firstHeader(req.headers['referer']),
    host: req.host,
    publicOrigin: opts.publicOrigin,
    cookieBound: !opts.routeIgnoresCookie && hasCookie(firstHeader(req.headers['cookie']), opts.sessionCookie),
  };
}

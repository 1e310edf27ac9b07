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
}

/**
 * Whether a state-changing request comes from another site. Browsers send Origin on every cross-site
 * POST/PUT/PATCH/DELETE (and fetch from our own pages sends ours), so a foreign or opaque ("null")
 * origin is refused. Requests carrying neither Origin nor Referer are not from a browser page
 * (curl, server to server) and pass: the cookie that would make them dangerous is not sent by them.
 */
export function isCrossSiteRequest(input: OriginCheckInput): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  const source = input.origin ?? input.referer;
  if (source === undefined || source === '') return false;
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

export function originCheckInput(
  req: { method: string; headers: Record<string, string | string[] | undefined>; host: string },
  publicOrigin: string | undefined,
): OriginCheckInput {
  return {
    method: req.method,
    origin: firstHeader(req.headers['origin']),
    referer: firstHeader(req.headers['referer']),
    host: req.host,
    publicOrigin,
  };
}

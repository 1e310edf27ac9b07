import type { RateLimitHeaders, XLookupAnswer, XPostsLookup } from '../ports.js';
import { recordXRequest, statusOutcome } from '../metrics.js';

/** The post fields the worker asks X for (id and text come always). */
export const LOOKUP_TWEET_FIELDS = 'public_metrics,created_at,author_id,text,attachments';
/** The posts' media with their public metrics: a video's `view_count` (ADR 0049). */
export const LOOKUP_EXPANSIONS = 'attachments.media_keys';
export const LOOKUP_MEDIA_FIELDS = 'type,public_metrics';

/** X did not answer (timeout, connection refused or reset): worth retrying with the job's backoff. */
export class XUnavailableError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'XUnavailableError';
  }
}

export interface XApiClientOptions {
  baseUrl: string;
  bearerToken: string;
  timeoutMs: number;
}

/** The three headers X sends with its answers; absent or unreadable ones are left out. */
export function readRateLimitHeaders(headers: Headers): RateLimitHeaders {
  const num = (name: string) => {
    const raw = headers.get(name);
    if (raw === null || raw.trim() === '') return undefined;
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const limit = num('x-rate-limit-limit');
  const remaining = num('x-rate-limit-remaining');
  const resetAtSeconds = num('x-rate-limit-reset');
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetAtSeconds !== undefined ? { resetAtSeconds } : {}),
  };
}

/**
 * X's API v2 post lookup (`GET /2/tweets?ids=…`, app-only bearer token): one request per call, at most
 * 100 ids. Every HTTP answer is returned (status, rate-limit headers, the parsed body of a 200); only no
 * answer at all (timeout, network) throws {@link XUnavailableError}. What an answer means is the job's
 * business (RefreshMetricsHandler), so the rules can be tested without a server.
 */
export class XApiClient implements XPostsLookup {
  constructor(private readonly opts: XApiClientOptions) {}

  async lookup(ids: readonly string[], signal: AbortSignal): Promise<XLookupAnswer> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const answer = await this.request(ids, signal);
      recordXRequest(statusOutcome(answer.status), seconds());
      return answer;
    } catch (err) {
      recordXRequest('unavailable', seconds());
      throw err;
    }
  }

  private async request(ids: readonly string[], signal: AbortSignal): Promise<XLookupAnswer> {
    const url =
      `${this.opts.baseUrl}/2/tweets?ids=${ids.join(',')}&tweet.fields=${LOOKUP_TWEET_FIELDS}` +
      `&expansions=${LOOKUP_EXPANSIONS}&media.fields=${LOOKUP_MEDIA_FIELDS}`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${this.opts.bearerToken}`, accept: 'application/json' },
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new XUnavailableError(
        timeout.aborted ? `X did not answer within ${this.opts.timeoutMs} ms` : `X could not be reached: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const rate = readRateLimitHeaders(res.headers);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw err;
      throw new XUnavailableError(
        timeout.aborted ? `X's answer did not arrive within ${this.opts.timeoutMs} ms` : `X's answer broke off: ${(err as Error).message}`,
        { cause: err },
      );
    }
    if (res.status !== 200) return { status: res.status, rate, detail: text.slice(0, 500) };
    try {
      return { status: 200, rate, body: JSON.parse(text) as unknown, answeredAt: new Date() };
    } catch {
      // A 200 that is not JSON (a proxy's page): as good as no answer.
      return { status: 502, rate, detail: `X answered 200 with a body that is not JSON: ${text.slice(0, 200)}` };
    }
  }
}

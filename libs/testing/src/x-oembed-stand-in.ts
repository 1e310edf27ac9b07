import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/**
 * How the stand-in answers for a post: its embed (the default, optionally with an image in the html),
 * X's 404 (deleted) or 403 (protected), a 5xx, a 200 that is not JSON, or no answer at all until the
 * client gives up (`hang`) or after `delayMs`.
 */
export type XOembedBehaviour =
  | { kind: 'found'; authorName?: string; text?: string; imageUrl?: string; delayMs?: number }
  | { kind: 'not-found' }
  | { kind: 'forbidden' }
  | { kind: 'error'; status?: number }
  | { kind: 'garbage' }
  | { kind: 'hang' };

/** One request the stand-in received, as it arrived. */
export interface XOembedRequestRecord {
  at: number;
  /** The post id named by the `url` parameter ('' when there was none). */
  statusId: string;
  /** Every query parameter (url, omit_script, dnt, …). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface XOembedStandInCounters {
  /** Every request to /oembed. */
  requests: number;
  /** Requests that carried a Cookie header (answered 400: a browser's cookies must never reach X). */
  withCookie: number;
}

const STATUS_URL = /^https?:\/\/(?:(?:www|mobile)\.)?(?:twitter\.com|x\.com)\/([A-Za-z0-9_]{1,15})\/status\/(\d{1,25})/i;

/**
 * A local stand-in for X's oEmbed endpoint (publish.twitter.com/oembed): `GET /oembed?url=<status link>`
 * answers X's JSON for the post (`type`, `html`, `author_name`, `cache_age` as a string of digits, …), or
 * whatever {@link XOembedBehaviour} was set for its id. It counts requests per post id and keeps a log of
 * each request's query and headers, so tests can prove a cached answer never reached it and that no
 * cookie was forwarded (a request with a Cookie header is refused with 400, and counted).
 */
export class XOembedStandIn {
  readonly counters: XOembedStandInCounters = { requests: 0, withCookie: 0 };
  readonly requests: XOembedRequestRecord[] = [];
  private readonly behaviours = new Map<string, XOembedBehaviour>();
  private readonly hits = new Map<string, number>();
  private server: Server | undefined;
  private baseUrl = '';

  /** Starts listening on 127.0.0.1 and a free port. */
  async start(): Promise<this> {
    const server = createServer((req, res) => this.handle(req, res));
    this.baseUrl = await listenOnLoopback(server);
    this.server = server;
    return this;
  }

  /** What OEMBED_URL is set to for a client of this stand-in. */
  get url(): string {
    if (!this.baseUrl) throw new Error('the X oEmbed stand-in is not started');
    return `${this.baseUrl}/oembed`;
  }

  /** How requests for this post id are answered from now on. */
  set(statusId: string, behaviour: XOembedBehaviour): this {
    this.behaviours.set(statusId, behaviour);
    return this;
  }

  /** Requests that named this post id. */
  hitsFor(statusId: string): number {
    return this.hits.get(statusId) ?? 0;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    // Hanging requests included.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method !== 'GET' || url.pathname !== '/oembed') return this.answer(res, 404, 'text/plain', 'Not found');
    this.counters.requests += 1;
    const postUrl = url.searchParams.get('url') ?? '';
    const match = STATUS_URL.exec(postUrl);
    const statusId = match?.[2] ?? '';
    const record: XOembedRequestRecord = {
      at: Date.now(),
      statusId,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
      status: 0,
    };
    this.requests.push(record);
    if (statusId) this.hits.set(statusId, this.hitsFor(statusId) + 1);
    const send = (status: number, type: string, body: string) => {
      record.status = status;
      this.answer(res, status, type, body);
    };
    if (req.headers.cookie !== undefined) {
      this.counters.withCookie += 1;
      return send(400, 'text/plain', 'A Cookie header reached the oEmbed stand-in');
    }
    // X's answer to a link that is not a status.
    if (!match) return send(404, 'text/plain', 'Not Found');
    const behaviour = this.behaviours.get(statusId) ?? { kind: 'found' };
    switch (behaviour.kind) {
      case 'not-found':
        return send(404, 'text/plain', 'Not Found');
      case 'forbidden':
        return send(403, 'text/plain', 'Forbidden');
      case 'error':
        return send(behaviour.status ?? 503, 'text/plain', 'Over capacity');
      case 'garbage':
        return send(200, 'text/html', '<html>not an embed</html>');
      case 'hang':
        // Never answered: the client's timeout (or close()) ends it.
        return;
      case 'found': {
        const body = JSON.stringify(oembedAnswer(match[1]!, statusId, behaviour));
        if (behaviour.delayMs) {
          setTimeout(() => send(200, 'application/json; charset=utf-8', body), behaviour.delayMs).unref();
          return;
        }
        return send(200, 'application/json; charset=utf-8', body);
      }
    }
  }

  private answer(res: ServerResponse, status: number, type: string, body: string): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}

/** X's oEmbed JSON for a post, field for field as publish.twitter.com sends it (plus `extra_field`, which a client should drop). */
export function oembedAnswer(
  handle: string,
  statusId: string,
  opts: { authorName?: string; text?: string; imageUrl?: string } = {},
): Record<string, unknown> {
  const author = opts.authorName ?? handle;
  const image = opts.imageUrl ? `<a href="https://t.co/x"><img src="${opts.imageUrl}"></a>` : '';
  return {
    url: `https://twitter.com/${handle}/status/${statusId}`,
    author_name: author,
    author_url: `https://twitter.com/${handle}`,
    html: `<blockquote class="twitter-tweet" data-dnt="true"><p lang="en" dir="ltr">${opts.text ?? `Post ${statusId}`}${image}</p>&mdash; ${author} (@${handle}) <a href="https://twitter.com/${handle}/status/${statusId}?ref_src=twsrc%5Etfw">November 24, 2026</a></blockquote>\n`,
    width: 550,
    height: null,
    type: 'rich',
    cache_age: '3153600000',
    provider_name: 'Twitter',
    provider_url: 'https://twitter.com',
    version: '1.0',
    extra_field: 'not documented',
  };
}

/** Starts a stand-in (see {@link XOembedStandIn}); close it after the tests. */
export function startXOembedStandIn(): Promise<XOembedStandIn> {
  return new XOembedStandIn().start();
}

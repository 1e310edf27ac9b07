import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** A post's `public_metrics` as X's API v2 returns them (tweet.fields=public_metrics). */
export interface XPublicMetrics {
  retweet_count: number;
  reply_count: number;
  like_count: number;
  quote_count: number;
  bookmark_count: number;
  impression_count: number;
}

/** A post object of X's API v2 with the fields the stand-in knows (which ones are sent follows `tweet.fields`). */
export interface XPost {
  id: string;
  text: string;
  edit_history_tweet_ids: string[];
  author_id: string;
  created_at: string;
  public_metrics: XPublicMetrics;
  /** The post's video (a media object of type video), null for a post without one. */
  video: XVideo | null;
}

/** A post's video as X's media object gives it (`expansions=attachments.media_keys&media.fields=public_metrics`). */
export interface XVideo {
  media_key: string;
  /** `public_metrics.view_count`: how often the video was viewed (null: X gives no count for it). */
  view_count: number | null;
}

/** X's problem object for one id of a lookup it cannot answer with a post. */
export interface XResourceError {
  value: string;
  detail: string;
  title: string;
  resource_type: 'tweet';
  parameter: 'ids';
  resource_id: string;
  type: string;
}

/** Why a post cannot be seen: deleted (or never existed), or protected / its author suspended. */
export type XPostGone = 'not-found' | 'not-authorized';

export interface XApiStandInOptions {
  /** The app's bearer token the stand-in accepts (default `stand-in-bearer-token`). */
  bearerToken?: string;
  /** Requests allowed per window (default 450, X's app limit shape for post lookup). */
  rateLimit?: number;
  /** Length of a rate-limit window in ms (default 15 minutes, as X's). */
  windowMs?: number;
  /** Answer any id it holds no post for with a post derived from the id (metrics and all), instead of Not Found. */
  generate?: boolean;
}

export interface XApiStandInCounters {
  /** Every request to /2/tweets. */
  requests: number;
  /** Answered 200 (with data and/or errors). */
  ok: number;
  /** Answered 429, whether the window was used up or a 429 was injected. */
  tooManyRequests: number;
  /** Answered 5xx (injected). */
  serverErrors: number;
  /** Answered 401 (no or wrong bearer token). */
  unauthorized: number;
  /** Answered 400 (bad ids). */
  badRequests: number;
  /** Ids asked for in requests answered 200. */
  idsLookedUp: number;
}

export interface XApiRequestRecord {
  at: number;
  ids: string[];
  status: number;
}

/** Metrics, author, text and date of a post to set; what is left out keeps its value (or the generated one). */
export interface XPostPatch {
  metrics?: Partial<XPublicMetrics>;
  /** The video's view count; null: the post has no video. */
  videoViews?: number | null;
  author_id?: string;
  text?: string;
  created_at?: string;
}

/**
 * A stand-in for X's API v2 post lookup (`GET /2/tweets?ids=`), a real HTTP server on a loopback port for
 * the metrics worker's tests and benchmark. Answers in X's shapes: `{data: [post…], errors: [problem…]}`
 * with only the requested `tweet.fields` (id, text and edit_history_tweet_ids always), a post's video in
 * `includes.media` when `expansions=attachments.media_keys` asks for it (its view count with
 * `media.fields=public_metrics`), deleted or
 * protected posts as X's problem objects, X's rate limiting (the three `x-rate-limit-*` headers on every
 * answer, `reset` in epoch seconds; 429 with X's body once the window's requests are used up), 401 on a
 * wrong bearer token, 400 on bad ids. Tests set and change posts, and inject 429s, 5xx, slow and partial
 * answers; counters and a request log say what the client did.
 */
export class XApiStandIn {
  readonly bearerToken: string;
  readonly counters: XApiStandInCounters = {
    requests: 0,
    ok: 0,
    tooManyRequests: 0,
    serverErrors: 0,
    unauthorized: 0,
    badRequests: 0,
    idsLookedUp: 0,
  };
  readonly requests: XApiRequestRecord[] = [];
  /** Keep the request log (off for benchmarks that make many requests). */
  logRequests = true;
  private readonly posts = new Map<string, XPost>();
  private readonly gone = new Map<string, XPostGone>();
  private readonly omitted = new Map<string, number>();
  private limit: number;
  private windowMs: number;
  private generate: boolean;
  private window: { resetAtSeconds: number; used: number } | undefined;
  private faults: Array<{ kind: 'status'; status: number } | { kind: '429'; withReset: boolean }> = [];
  private delays: number[] = [];
  private latencyMs = 0;
  private server: Server | undefined;
  private baseUrl = '';

  constructor(opts: XApiStandInOptions = {}) {
    this.bearerToken = opts.bearerToken ?? 'stand-in-bearer-token';
    this.limit = opts.rateLimit ?? 450;
    this.windowMs = opts.windowMs ?? 15 * 60_000;
    this.generate = opts.generate ?? false;
  }

  /** Starts listening on 127.0.0.1 and a free port. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ title: 'Internal Error', detail: String(err), type: 'about:blank', status: 500 }));
      });
    });
    server.keepAliveTimeout = 60_000;
    this.baseUrl = await listenOnLoopback(server);
    this.server = server;
    return this;
  }

  /** What X_API_BASE_URL is set to for a client of this stand-in. */
  get url(): string {
    if (!this.baseUrl) throw new Error('the X API stand-in is not started');
    return this.baseUrl;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ----- posts ---------------------------------------------------------------------------------------------

  /** Creates or changes a post (a generated post is the starting point for an id it does not hold yet). */
  setPost(id: string, patch: XPostPatch = {}): XPost {
    const current = this.posts.get(id) ?? generatedPost(id);
    const post: XPost = {
      ...current,
      ...(patch.author_id !== undefined ? { author_id: patch.author_id } : {}),
      ...(patch.text !== undefined ? { text: patch.text } : {}),
      ...(patch.created_at !== undefined ? { created_at: patch.created_at } : {}),
      public_metrics: { ...current.public_metrics, ...patch.metrics },
      video:
        patch.videoViews === undefined
          ? current.video
          : patch.videoViews === null
            ? null
            : { media_key: current.video?.media_key ?? videoKey(id), view_count: patch.videoViews },
    };
    this.posts.set(id, post);
    this.gone.delete(id);
    return post;
  }

  /** The post as the stand-in would answer it now (undefined when it answers an error for the id). */
  post(id: string): XPost | undefined {
    if (this.gone.has(id)) return undefined;
    return this.posts.get(id) ?? (this.generate ? generatedPost(id) : undefined);
  }

  /** The post is deleted (`not-found`, X's "Not Found Error") or cannot be seen (`not-authorized`, "Authorization Error"). */
  deletePost(id: string, why: XPostGone = 'not-found'): void {
    this.gone.set(id, why);
  }

  // ----- knobs ---------------------------------------------------------------------------------------------

  /** Changes the window's shape; the current window ends now. */
  setRateLimit(limit: number, windowMs = this.windowMs): void {
    this.limit = limit;
    this.windowMs = windowMs;
    this.window = undefined;
  }

  /** The next `times` requests are answered with `status` (a 5xx by default) and X's problem body. */
  failNext(times = 1, status = 503): void {
    for (let i = 0; i < times; i++) this.faults.push({ kind: 'status', status });
  }

  /** The next `times` requests are answered 429; without `withReset` the x-rate-limit-reset header is left out. */
  tooManyRequestsNext(times = 1, { withReset = true }: { withReset?: boolean } = {}): void {
    for (let i = 0; i < times; i++) this.faults.push({ kind: '429', withReset });
  }

  /** The next `times` answers wait `ms` before they are sent. */
  delayNext(times: number, ms: number): void {
    for (let i = 0; i < times; i++) this.delays.push(ms);
  }

  /** Every answer waits this long (0: none). */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /**
   * A partial answer: these ids are left out of the next `times` answers that ask for them (neither in
   * `data` nor in `errors`), as X sometimes does.
   */
  omitIds(ids: Iterable<string>, times = 1): void {
    for (const id of ids) this.omitted.set(id, times);
  }

  /** The rate-limit window as the headers state it now. */
  rateLimitState(now = Date.now()): { limit: number; remaining: number; resetAtSeconds: number } {
    const window = this.currentWindow(now);
    return { limit: this.limit, remaining: Math.max(this.limit - window.used, 0), resetAtSeconds: window.resetAtSeconds };
  }

  // ----- HTTP ----------------------------------------------------------------------------------------------

  private currentWindow(now: number): { resetAtSeconds: number; used: number } {
    // Like X: a window starts with the first request after the last one ended, and ends at its reset second.
    if (!this.window || now >= this.window.resetAtSeconds * 1000)
      this.window = { resetAtSeconds: Math.ceil((now + this.windowMs) / 1000), used: 0 };
    return this.window;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method !== 'GET' || url.pathname !== '/2/tweets') {
      return send(res, 404, {
        title: 'Not Found Error',
        detail: `${req.method} ${url.pathname} is not served by the stand-in`,
        type: 'about:blank',
        status: 404,
      });
    }
    this.counters.requests++;
    const record = (status: number, ids: string[]) => {
      if (this.logRequests) this.requests.push({ at: Date.now(), ids, status });
    };
    if (req.headers.authorization !== `Bearer ${this.bearerToken}`) {
      this.counters.unauthorized++;
      record(401, []);
      return send(res, 401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    }

    const now = Date.now();
    const window = this.currentWindow(now);
    window.used++;
    const headers: Record<string, string> = {
      'x-rate-limit-limit': String(this.limit),
      'x-rate-limit-remaining': String(Math.max(this.limit - window.used, 0)),
      'x-rate-limit-reset': String(window.resetAtSeconds),
    };
    const delay = (this.delays.shift() ?? 0) + this.latencyMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));

    const fault = this.faults.shift();
    if (window.used > this.limit || fault?.kind === '429') {
      this.counters.tooManyRequests++;
      record(429, []);
      if (fault?.kind === '429' && !fault.withReset) delete headers['x-rate-limit-reset'];
      return send(res, 429, { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }, headers);
    }
    if (fault?.kind === 'status') {
      this.counters.serverErrors++;
      record(fault.status, []);
      return send(
        res,
        fault.status,
        { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: fault.status },
        headers,
      );
    }

    const ids = (url.searchParams.get('ids') ?? '').split(',').filter((id) => id !== '');
    const bad = ids.filter((id) => !/^\d{1,19}$/.test(id));
    if (ids.length === 0 || ids.length > 100 || bad.length > 0) {
      this.counters.badRequests++;
      record(400, ids);
      const message =
        ids.length === 0
          ? 'The `ids` query parameter can not be empty'
          : ids.length > 100
            ? `size [${ids.length}] is not between 1 and 100`
            : `The \`ids\` query parameter value [${bad[0]}] is not valid`;
      return send(
        res,
        400,
        {
          errors: [{ parameters: { ids: [url.searchParams.get('ids') ?? ''] }, message }],
          title: 'Invalid Request',
          detail: 'One or more parameters to your request was invalid.',
          type: 'https://api.twitter.com/2/problems/invalid-request',
        },
        headers,
      );
    }

    const fields = new Set((url.searchParams.get('tweet.fields') ?? '').split(',').filter(Boolean));
    const expansions = new Set((url.searchParams.get('expansions') ?? '').split(',').filter(Boolean));
    const mediaFields = new Set((url.searchParams.get('media.fields') ?? '').split(',').filter(Boolean));
    const media: Array<Record<string, unknown>> = [];
    const data: Array<Record<string, unknown>> = [];
    const errors: XResourceError[] = [];
    for (const id of new Set(ids)) {
      const omitsLeft = this.omitted.get(id);
      if (omitsLeft !== undefined && omitsLeft > 0) {
        if (omitsLeft === 1) this.omitted.delete(id);
        else this.omitted.set(id, omitsLeft - 1);
        continue;
      }
      const gone = this.gone.get(id);
      const post = this.post(id);
      if (post) {
        data.push(withFields(post, fields, expansions));
        // Like X: the expanded media in `includes.media`, type and media_key always, the rest by media.fields.
        if (post.video && expansions.has('attachments.media_keys'))
          media.push({
            media_key: post.video.media_key,
            type: 'video',
            ...(mediaFields.has('public_metrics') && post.video.view_count !== null
              ? { public_metrics: { view_count: post.video.view_count } }
              : {}),
          });
      } else errors.push(resourceError(id, gone ?? 'not-found'));
    }
    this.counters.ok++;
    this.counters.idsLookedUp += ids.length;
    record(200, ids);
    return send(
      res,
      200,
      {
        ...(data.length > 0 ? { data } : {}),
        ...(media.length > 0 ? { includes: { media } } : {}),
        ...(errors.length > 0 ? { errors } : {}),
      },
      headers,
    );
  }
}

/** Starts a stand-in (see {@link XApiStandIn}); close it after the tests. */
export function startXApiStandIn(opts: XApiStandInOptions = {}): Promise<XApiStandIn> {
  return new XApiStandIn(opts).start();
}

/**
 * The post the stand-in makes up for an id it holds nothing for: every figure derived from the id (the
 * same id gives the same post, in any process), so a benchmark of 100,000 posts needs no setup.
 */
export function generatedPost(id: string): XPost {
  const h = createHash('sha256').update(`x-stand-in:${id}`).digest();
  const n = (offset: number, mod: number) => h.readUInt32BE(offset) % mod;
  const impressions = n(0, 2_000_000);
  return {
    id,
    text: `Clip post ${id} #clipit`,
    edit_history_tweet_ids: [id],
    author_id: String(1_000_000 + n(4, 9_000_000)),
    // Some time in the 90 days before 2026-11-01, whole milliseconds as X writes them.
    created_at: new Date(Date.UTC(2026, 10, 1) - n(8, 90 * 86_400) * 1000).toISOString(),
    public_metrics: {
      retweet_count: n(12, 5_000),
      reply_count: n(16, 2_000),
      like_count: Math.min(n(20, 50_000), impressions),
      quote_count: n(24, 500),
      bookmark_count: n(28, 1_000),
      impression_count: impressions,
    },
    // A clip's post carries its video; a bit under half of the people who see it play it.
    video: { media_key: videoKey(id), view_count: Math.floor(impressions * 0.45) },
  };
}

/** X's media keys are `<type>_<id>` (13 for a video). */
function videoKey(postId: string): string {
  return `13_${postId}`;
}

function withFields(post: XPost, fields: Set<string>, expansions: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: post.id, text: post.text, edit_history_tweet_ids: post.edit_history_tweet_ids };
  if (fields.has('author_id')) out['author_id'] = post.author_id;
  if (fields.has('created_at')) out['created_at'] = post.created_at;
  if (fields.has('public_metrics')) out['public_metrics'] = { ...post.public_metrics };
  if (post.video && (fields.has('attachments') || expansions.has('attachments.media_keys')))
    out['attachments'] = { media_keys: [post.video.media_key] };
  return out;
}

function resourceError(id: string, why: XPostGone): XResourceError {
  return why === 'not-found'
    ? {
        value: id,
        detail: `Could not find tweet with ids: [${id}].`,
        title: 'Not Found Error',
        resource_type: 'tweet',
        parameter: 'ids',
        resource_id: id,
        type: 'https://api.twitter.com/2/problems/resource-not-found',
      }
    : {
        value: id,
        detail: `Sorry, you are not authorized to see the Tweet with ids: [${id}].`,
        title: 'Authorization Error',
        resource_type: 'tweet',
        parameter: 'ids',
        resource_id: id,
        type: 'https://api.twitter.com/2/problems/not-authorized-for-resource',
      };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

import { env, loadConfig, sharedConfigShape, withOverrides, type ConfigOf, type ConfigOverrides } from '@clipit/service-kit';
import { storageConfigShape } from '@clipit/storage';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

// FRONTEND_REMOTES: where the browser finds each remote's mf-manifest.json in this environment, over the
// defaults GET /remotes.json answers (web/remotes-config.ts).

const REMOTE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

function isManifestUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The variable as written: empty (the defaults), a JSON object (`{"public":"https://cdn.example/public/mf-manifest.json"}`),
 * or the path of a file holding one. Overrides only: a remote it does not name keeps its default.
 */
const frontendRemotes = z
  .string()
  .default('')
  .transform((raw, ctx): Record<string, string> => {
    if (raw === '') return {};
    let text = raw;
    if (!raw.startsWith('{')) {
      if (!existsSync(raw)) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object or the path of a file holding one (no such file)' });
        return z.NEVER;
      }
      text = readFileSync(raw, 'utf8');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object mapping remote names to mf-manifest.json URLs' });
      return z.NEVER;
    }
    const remotes: Record<string, string> = {};
    for (const [name, url] of Object.entries(parsed)) {
      if (!REMOTE_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', message: `remote "${name}": remote names are lower-case letters, digits and dashes` });
        return z.NEVER;
      }
      if (typeof url !== 'string' || !isManifestUrl(url)) {
        ctx.addIssue({
          code: 'custom',
          message: `remote "${name}" must map to a root-relative path or an http(s) URL of its mf-manifest.json`,
        });
        return z.NEVER;
      }
      remotes[name] = url;
    }
    return remotes;
  });

/** `TRUST_PROXY` as Fastify's `trustProxy` reads it: off, every hop, a hop count, or the proxies' addresses. */
const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): boolean | string[] | ((address: string, hop: number) => boolean) => {
    const lower = v.toLowerCase();
    if (['false', '0', 'no'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return true;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      return (_address: string, hop: number) => hop < hops;
    }
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length > 0 && list.every((a) => isIP(a.split('/')[0] ?? '') !== 0)) return list;
    ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a comma-separated list of proxy addresses/CIDRs' });
    return z.NEVER;
  });

const publicOrigin = z
  .string()
  .default('')
  .refine((v) => v === '' || /^https?:\/\/[^/?#]+$/.test(v), 'must be an origin such as https://clipit.example (scheme and host, no path)')
  .transform((v) => (v === '' ? undefined : new URL(v).origin));

export const gatewayConfigShape = {
  ...sharedConfigShape,
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  // 0 asks the OS for a free port (tests).
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  IDENTITY_GRPC_URL: env.grpcTarget('127.0.0.1:50051'),
  SUBMISSIONS_GRPC_URL: env.grpcTarget('127.0.0.1:50052'),
  ADMIN_GRPC_URL: env.grpcTarget('127.0.0.1:50053'),
  CAMPAIGNS_GRPC_URL: env.grpcTarget('127.0.0.1:50054'),
  SOCIAL_GRPC_URL: env.grpcTarget('127.0.0.1:50055'),
  /** How long a call to social (a follow, a like, the live state) may take before the request answers 504. */
  SOCIAL_GRPC_DEADLINE_MS: env.int(5000, 100),
  FEED_GRPC_URL: env.grpcTarget('127.0.0.1:50056'),
  REWARDS_GRPC_URL: env.grpcTarget('127.0.0.1:50057'),
  /** developer: API keys and webhook endpoints (ADR 0053). */
  DEVELOPER_GRPC_URL: env.grpcTarget('127.0.0.1:50058'),
  // Public reads (feed, leaderboards, profiles) are kept this long at most (0: not cached); the feed's
  // notices drop them as soon as what they show changes (ADR 0022). At most this many answers are kept.
  PUBLIC_READ_CACHE_TTL_MS: env.int(10_000),
  PUBLIC_READ_CACHE_MAX_ENTRIES: env.int(1000, 1),
  // Signed-in readers' feed pages: the likes of each reader on each page, laid over the shared page
  // (ADR 0045). The feed's notices drop them as soon as a like changes, and all of them go while NATS
  // cannot be heard: this time limit only bounds what a lost notice could leave (0: not cached). At most
  // this many (reader, page) pairs; one whose reader liked a clip on it holds a copy of the page (about
  // 1 KB a clip).
  GATEWAY_PERSONAL_READ_CACHE_TTL_MS: env.int(60_000, 0),
  GATEWAY_PERSONAL_READ_CACHE_MAX_ENTRIES: env.int(20_000, 1),
  // Each user's dashboard answer, kept this long at most (0: not cached); rewards' notices and identity's
  // user events drop it as soon as it changes, and all of them go while NATS cannot be heard (ADR 0045).
  // The limit bounds a lost notice and what moves with the clock alone (a week's window; a wallet hold's
  // end also ends the entry). At most this many users' (a few KB each).
  GATEWAY_DASHBOARD_CACHE_TTL_MS: env.int(60_000, 0),
  GATEWAY_DASHBOARD_CACHE_MAX_ENTRIES: env.int(10_000, 1),
  // The event streams (GET /api/live/stream, GET /api/submissions/stream): a comment line this often keeps
  // proxies from closing an idle stream; after the longest life the server ends it and the browser reconnects
  // (its session checked again). At most LIVE_STREAMS_PER_USER of each kind per user on a replica.
  LIVE_HEARTBEAT_SECONDS: env.int(15, 1),
  LIVE_STREAM_MAX_SECONDS: env.int(3600, 5),
  LIVE_STREAMS_PER_USER: env.int(10, 1),
  /** go-live/offline events a replica keeps to replay to a browser reconnecting with Last-Event-ID. */
  LIVE_REPLAY_EVENTS: env.int(1000, 1),
  /**
   * How long a replica answers a session from memory before asking identity again (ADR 0004); 0 turns the
   * cache off. Logouts, password resets and user changes reach every replica sooner, through NATS.
   */
  GATEWAY_SESSION_CACHE_TTL_MS: env.int(10_000, 0),
  /** Sessions a replica keeps in that cache; the least recently used go first. */
  GATEWAY_SESSION_CACHE_MAX_ENTRIES: env.int(50_000, 1),
  /** The browser-facing origin; unset = requests whose Origin names the Host they were sent to are accepted. */
  PUBLIC_ORIGIN: publicOrigin,
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: trustProxy,
  RATE_LIMIT_WINDOW_SECONDS: env.int(900, 1),
  RATE_LIMIT_MAX_PER_IP: env.int(30, 1),
  RATE_LIMIT_MAX_PER_HANDLE: env.int(10, 1),
  // Submissions created per UTC day (POST /api/submissions), against flooding the moderation queue; far
  // above what a real clipper sends. An address can be a shared network, so it allows more than an account.
  SUBMISSION_LIMIT_PER_USER: env.int(20, 1),
  SUBMISSION_LIMIT_PER_IP: env.int(100, 1),
  // Clipper job applications (POST /api/clipper-applications, open to visitors) per address and window.
  APPLICATION_LIMIT_PER_IP: env.int(5, 1),
  APPLICATION_LIMIT_WINDOW_SECONDS: env.int(3600, 1),
  // Hire requests (POST /api/clippers/:id/hire, open to visitors, ADR 0027) per address and window.
  HIRE_LIMIT_PER_IP: env.int(10, 1),
  HIRE_LIMIT_WINDOW_SECONDS: env.int(3600, 1),
  // Post previews (GET /api/twitter/oembed): X's oEmbed endpoint, how long to wait for it, how long a found
  // post (X's cache_age, capped) and a missing one are kept in Redis, and lookups that reach X per address.
  OEMBED_URL: env.url('https://publish.twitter.com/oembed', ['https', 'http']),
  OEMBED_TIMEOUT_MS: env.int(2500, 100),
  OEMBED_CACHE_TTL_SECONDS: env.int(86_400, 1),
  OEMBED_NOT_FOUND_TTL_SECONDS: env.int(600, 1),
  OEMBED_LIMIT_PER_IP: env.int(60, 1),
  OEMBED_LIMIT_WINDOW_SECONDS: env.int(60, 1),
  // The versioned read API (/api/v1, ADR 0053): requests per API key and window, shared by every replica
  // (Redis), and how long a replica keeps a key's authentication (at most 1 s: a revoked key is refused on
  // every replica within it even when its revocation event is lost; 0: every request asks developer).
  API_KEY_LIMIT_PER_WINDOW: env.int(600, 1),
  API_KEY_LIMIT_WINDOW_SECONDS: env.int(60, 1),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(1000).default(500),
  // Sign in with X (ADR 0028): X's OAuth 2.0 app (no client id = the sign-in buttons open the password sign-in),
  // X's endpoints, where X sends the browser back (empty: PUBLIC_ORIGIN, else the request's own origin, +
  // /auth/twitter/callback), the scopes asked for, the wait for each call to X, and how long a started
  // round trip (its state and PKCE verifier in Redis, its cookie) stays usable.
  X_OAUTH_CLIENT_ID: z.string().trim().default(''),
  X_OAUTH_CLIENT_SECRET: z.string().default(''),
  X_OAUTH_AUTHORIZE_URL: env.url('https://x.com/i/oauth2/authorize', ['https', 'http']),
  X_OAUTH_TOKEN_URL: env.url('https://api.x.com/2/oauth2/token', ['https', 'http']),
  X_API_BASE_URL: env.url('https://api.x.com', ['https', 'http']).transform((v) => v.replace(/\/+$/, '')),
  X_OAUTH_CALLBACK_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), 'must be empty or an http(s) URL'),
  X_OAUTH_SCOPES: z
    .string()
    .default('tweet.read users.read')
    .refine((v) => /^[\w.:-]+( [\w.:-]+)*$/.test(v.trim()), 'must be scopes separated by single spaces')
    .transform((v) => v.trim()),
  X_OAUTH_TIMEOUT_MS: env.int(10_000, 100),
  X_OAUTH_STATE_TTL_SECONDS: env.int(600, 60),
  BODY_LIMIT_BYTES: env.int(1024 * 1024, 1024),
  PROFILE_IMAGE_MAX_BYTES: env.int(5 * 1024 * 1024, 1024),
  // The web app (src/web): the shell's build, the remotes' builds, where browsers find each remote.
  FRONTEND_SHELL_DIR: z.string().default('frontends/shell/dist'),
  /** Empty = each remote's own build folder, frontends/<name>/dist; else <dir>/<name>. */
  FRONTEND_REMOTES_DIR: z.string().default(''),
  FRONTEND_REMOTES: frontendRemotes,
  ...storageConfigShape,
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigShape>;
export type GatewayConfigOverrides = ConfigOverrides<typeof gatewayConfigShape>;

/** The gateway's configuration: the environment, with explicit overrides (tests, the bench) on top. */
export function loadGatewayConfig(overrides: GatewayConfigOverrides = {}, source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(gatewayConfigShape, withOverrides(overrides, source));
}

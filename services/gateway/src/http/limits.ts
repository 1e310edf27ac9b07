// Every rate limit of the gateway in one table (ADR 0035): what each one counts, over which window, and what
// a refusal says. A route names its limit in its declaration (`limit` in its *.routes.ts entry) and the one
// guard (rate-limit.guard.ts) applies it; the counters are Redis's, shared by every gateway replica, with
// each process's own while Redis does not answer (ADR 0018). The limit's name is its Redis action:
// `<REDIS_KEY_PREFIX>rl:<name>:<ip|handle>:<value>`, or `…:<user|ip>:<value>:<YYYY-MM-DD>` for a daily one.
import { isIPv6 } from 'node:net';
import type { GatewayConfig } from '../config.js';
import { TOO_MANY_ATTEMPTS } from './messages.js';

/** "in 45 seconds", "in 12 minutes", "in 5 hours": rounded up, so a person never comes back too early. */
export function inAbout(seconds: number): string {
  const unit = (n: number, name: string) => `in ${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/** The counters a window limit uses (its window and maxima, from the configuration). */
export const WINDOW_COUNTERS = {
  /** Sign-in attempts: RATE_LIMIT_* per address and per handle or account (ADR 0004). */
  attempts: (c: GatewayConfig) => ({
    windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS,
    maxPerIp: c.RATE_LIMIT_MAX_PER_IP,
    maxPerHandle: c.RATE_LIMIT_MAX_PER_HANDLE,
  }),
  // The ones below count per address only (no second counter is ever named).
  applications: (c: GatewayConfig) => ({
    windowSeconds: c.APPLICATION_LIMIT_WINDOW_SECONDS,
    maxPerIp: c.APPLICATION_LIMIT_PER_IP,
    maxPerHandle: c.APPLICATION_LIMIT_PER_IP,
  }),
  hires: (c: GatewayConfig) => ({
    windowSeconds: c.HIRE_LIMIT_WINDOW_SECONDS,
    maxPerIp: c.HIRE_LIMIT_PER_IP,
    maxPerHandle: c.HIRE_LIMIT_PER_IP,
  }),
  oembed: (c: GatewayConfig) => ({
    windowSeconds: c.OEMBED_LIMIT_WINDOW_SECONDS,
    maxPerIp: c.OEMBED_LIMIT_PER_IP,
    maxPerHandle: c.OEMBED_LIMIT_PER_IP,
  }),
  /** The versioned read API: per API key (its one counter is the key's, `…:ip:key:<id>`), not per address. */
  apiKeys: (c: GatewayConfig) => ({
    windowSeconds: c.API_KEY_LIMIT_WINDOW_SECONDS,
    maxPerIp: c.API_KEY_LIMIT_PER_WINDOW,
    maxPerHandle: c.API_KEY_LIMIT_PER_WINDOW,
  }),
} as const;
export type WindowCounters = keyof typeof WINDOW_COUNTERS;

/** A fixed-window limit per client address and, when `second` is set, per handle or account as well. */
export interface WindowLimit {
  kind: 'window';
  counters: WindowCounters;
  /** The second counter: the handle the body names (sign-in), or the signed-in account. */
  second?: 'handle' | 'account';
  /** Counted per API key (the guard's principal) instead of per client address: a program's servers move. */
  per?: 'apiKey';
  /** The 429's text. */
  message: (retryAfterSeconds: number) => string;
  /**
   * When the counters themselves fail (not Redis being away: then they count in this process), refuse
   * with 503 (a sign-in limit is a security boundary), or let the request through (a courtesy limit).
   */
  onFault: 'refuse' | 'allow';
}

/**
 * A per-UTC-day limit per account and per address (ADR 0013): counted once the route's work is done, given
 * back when the owner answered that nothing was made, and not checked while Redis is away (an abuse limit).
 */
export interface DailyLimit {
  kind: 'daily';
  perUser: (c: GatewayConfig) => number;
  perIp: (c: GatewayConfig) => number;
  message: (spent: 'user' | 'ip', limit: number, retryAfterSeconds: number) => string;
}

export type LimitDef = WindowLimit | DailyLimit;

const attempts = (second?: WindowLimit['second']): WindowLimit => ({
  kind: 'window',
  counters: 'attempts',
  ...(second ? { second } : {}),
  message: () => TOO_MANY_ATTEMPTS,
  onFault: 'refuse',
});

const fromYourNetwork = (what: string) => (retryAfterSeconds: number) =>
  `Too many ${what} from your network. Try again ${inAbout(retryAfterSeconds)}.`;

export const LIMITS = {
  signup: attempts('handle'),
  login: attempts('handle'),
  'reset-password': attempts('handle'),
  'reset-confirm': attempts(),
  'verify-email': attempts(),
  'verify-email-send': attempts(),
  /** A wrong password costs an attempt, per address and per account, as a login does. */
  'wallet-change': attempts('account'),
  /** Sign in with X: its refusals are redirects of the flow (ADR 0028), so its service takes these. */
  'x-sign-in': attempts(),
  'x-callback': attempts(),
  'clipper-applications': { kind: 'window', counters: 'applications', message: fromYourNetwork('applications'), onFault: 'refuse' },
  'hire-requests': { kind: 'window', counters: 'hires', message: fromYourNetwork('hire requests'), onFault: 'refuse' },
  /** Lookups that reach X (cached answers are not counted), so its service takes it; a fault lets the preview through. */
  oembed: { kind: 'window', counters: 'oembed', message: fromYourNetwork('post previews asked for'), onFault: 'allow' },
  /** The versioned read API (ADR 0053): shared by every replica; a fault lets the read through (a courtesy limit). */
  'api-key': {
    kind: 'window',
    counters: 'apiKeys',
    per: 'apiKey',
    message: (retryAfterSeconds: number) => `Too many requests with this API key. Try again ${inAbout(retryAfterSeconds)}.`,
    onFault: 'allow',
  },
  submissions: {
    kind: 'daily',
    perUser: (c) => c.SUBMISSION_LIMIT_PER_USER,
    perIp: (c) => c.SUBMISSION_LIMIT_PER_IP,
    message: (spent, limit, retryAfterSeconds) =>
      `${
        spent === 'user'
          ? `You have reached today's limit of ${limit} submissions.`
          : `Too many submissions from your network today (at most ${limit} a day).`
      } Try again ${inAbout(retryAfterSeconds)}, after 00:00 UTC.`,
  },
} as const satisfies Record<string, LimitDef>;

export type LimitName = keyof typeof LIMITS;
export type WindowLimitName = { [K in LimitName]: (typeof LIMITS)[K] extends WindowLimit ? K : never }[LimitName];
export type DailyLimitName = Exclude<LimitName, WindowLimitName>;

/** A refusal's text for the API reference, at a typical wait. */
export function limitExample(name: LimitName): string {
  const limit: LimitDef = LIMITS[name];
  if (limit.kind === 'daily') return limit.message('user', 20, 5 * 3600);
  return limit.message(name === 'oembed' || name === 'api-key' ? 45 : 40 * 60);
}

/**
 * The client address as a per-address counter knows it: an IPv4 address as it is (IPv4-mapped IPv6
 * too), an IPv6 address as its /64, the block one subscriber line gets, since a client can take any
 * address in it and would otherwise have a fresh counter per request.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return ip;
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = address.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

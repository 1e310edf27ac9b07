// The fault suite's time profiles. An outage proves two different things depending on its length: a short
// one is ridden out within every retry budget, deadline and reconciler bound of the part that is down (the
// retries cover it); a long one outlasts all of them (the budgets run out and what comes after must still
// lose nothing and double nothing). With the production budgets that takes 60 s an outage. The compressed
// profile runs the same code with those budgets scaled down through the variables that name them, so a
// long outage proves the same in a fraction of the time; `npm run test:faults:long` runs the real-time
// profile (FAULT_PROFILE=real-time): the production budgets, 5 s and 60 s outages.

import { envExample } from '../env-example.js';

export type TimeProfileName = 'compressed' | 'real-time';

/** A budget a long outage must outlast: its name, what it bounds, and its value under the profile. */
export interface OutlastedBudget {
  name: string;
  bounds: string;
  ms: number;
}

export interface TimeProfile {
  name: TimeProfileName;
  /** Variables every service of the fault platform gets (the budgets; nothing else). */
  env: Record<string, string>;
  /** Within every budget below. */
  shortOutageSeconds: number;
  /** Outlasts every budget below, with a margin. */
  longOutageSeconds: number;
  /** What a long outage outlasts, so the choice of its length can be read (and checked) in one place. */
  outlasted: OutlastedBudget[];
  /** People use the platform this long before the part goes away, and after every process is ready again. */
  loadBeforeMs: number;
  loadAfterMs: number;
  /**
   * Each simulated person's pause between two journeys. The journeys are the suite's load (a sign-up is a
   * memory-hard hash, a video an ffmpeg transcode); the compressed profile's people pause longer, so two
   * platforms side by side on two cores still restart and settle as fast as one would.
   */
  journeyPauseMs: number;
}

/** The production defaults the real-time profile keeps, except the reconciler, which waits 10 min in production. */
const REAL_TIME_ENV: Record<string, string> = {
  MEDIA_PROCESSING_STALE_SECONDS: '30',
  MEDIA_RECONCILE_INTERVAL_SECONDS: '5',
  MEDIA_WORKER_DRAIN_SECONDS: '2',
};

/**
 * Every budget scaled to between a fifth and a tenth, keeping their order: a dead-letter budget still
 * above the ack wait, a lock still renewed several times within its duration under a loaded machine.
 */
const COMPRESSED_ENV: Record<string, string> = {
  // The bus (libs/service-kit): redelivery after a lost ack, the handler retry budget, the outage backoff cap.
  BUS_ACK_WAIT_MS: '4000',
  BUS_RETRY_BACKOFF_MS: '200,800,2000,4000',
  BUS_OUTAGE_BACKOFF_MAX_MS: '1000',
  // The workers' queue (BullMQ): a dead worker's job is taken over after lock + stalled check; fetches resume after a Redis failure.
  MEDIA_WORKER_LOCK_DURATION_MS: '5000',
  MEDIA_WORKER_STALLED_INTERVAL_MS: '2000',
  MEDIA_WORKER_RUN_RETRY_DELAY_MS: '1000',
  METRICS_WORKER_LOCK_DURATION_MS: '5000',
  METRICS_WORKER_STALLED_INTERVAL_MS: '2000',
  METRICS_WORKER_RUN_RETRY_DELAY_MS: '1000',
  // A worker's decided outcome while NATS is away: published again with backoff up to the cap.
  MEDIA_WORKER_PUBLISH_TIMEOUT_MS: '2000',
  MEDIA_WORKER_PUBLISH_RETRY_MIN_MS: '300',
  MEDIA_WORKER_PUBLISH_RETRY_MAX_MS: '3000',
  METRICS_WORKER_PUBLISH_TIMEOUT_MS: '2000',
  METRICS_WORKER_PUBLISH_RETRY_MIN_MS: '300',
  METRICS_WORKER_PUBLISH_RETRY_MAX_MS: '3000',
  MEDIA_WORKER_DRAIN_SECONDS: '1',
  // submissions' reconciler: a video processing longer than this is re-driven.
  MEDIA_PROCESSING_STALE_SECONDS: '5',
  MEDIA_RECONCILE_INTERVAL_SECONDS: '1',
  // The gateway's caches that stand in for an absent owner, and feed's lag bound.
  GATEWAY_SESSION_CACHE_TTL_MS: '3000',
  PUBLIC_READ_CACHE_TTL_MS: '3000',
  FEED_MAX_LAG_SECONDS: '5',
};

/**
 * The budgets of `env` that a long outage must outlast; a variable `env` leaves out has its production
 * default, read from deploy/.env.example (which each service's config spec holds to its defaults).
 */
export function outlastedBudgets(env: Record<string, string>): OutlastedBudget[] {
  const defaults = envExample();
  const v = (name: string) => {
    const value = env[name] ?? defaults[name];
    if (value === undefined) throw new Error(`${name} is neither in the profile nor in deploy/.env.example`);
    return value;
  };
  const n = (name: string) => Number(v(name));
  const backoff = v('BUS_RETRY_BACKOFF_MS').split(',').map(Number);
  const attempts = n('BUS_MAX_ATTEMPTS');
  const deadLetterMs = Array.from({ length: attempts - 1 }, (_, i) => backoff[Math.min(i, backoff.length - 1)]!).reduce((a, b) => a + b, 0);
  return [
    { name: 'BUS_ACK_WAIT_MS', bounds: 'an applied event whose ack was lost is delivered again', ms: n('BUS_ACK_WAIT_MS') },
    {
      name: 'BUS_RETRY_BACKOFF_MS × BUS_MAX_ATTEMPTS',
      bounds: 'a failing handler is dead-lettered (an outage must never count here)',
      ms: deadLetterMs,
    },
    {
      name: 'MEDIA_WORKER_PUBLISH_RETRY_MAX_MS',
      bounds: "a worker's decided outcome is published again at the capped backoff",
      ms: n('MEDIA_WORKER_PUBLISH_RETRY_MAX_MS'),
    },
    {
      name: 'MEDIA_WORKER_LOCK_DURATION_MS + MEDIA_WORKER_STALLED_INTERVAL_MS',
      bounds: "a dead worker's job is taken over",
      ms: n('MEDIA_WORKER_LOCK_DURATION_MS') + n('MEDIA_WORKER_STALLED_INTERVAL_MS'),
    },
    {
      name: 'MEDIA_PROCESSING_STALE_SECONDS + MEDIA_RECONCILE_INTERVAL_SECONDS',
      bounds: 'a video stuck processing is re-driven by submissions',
      ms: (n('MEDIA_PROCESSING_STALE_SECONDS') + n('MEDIA_RECONCILE_INTERVAL_SECONDS')) * 1000,
    },
    {
      name: 'GATEWAY_SESSION_CACHE_TTL_MS',
      bounds: 'the gateway answers sessions without identity',
      ms: n('GATEWAY_SESSION_CACHE_TTL_MS'),
    },
    { name: 'PUBLIC_READ_CACHE_TTL_MS', bounds: 'the gateway answers public reads without feed', ms: n('PUBLIC_READ_CACHE_TTL_MS') },
    {
      name: 'FEED_MAX_LAG_SECONDS',
      bounds: "feed's readiness turns degraded when its read models fall behind",
      ms: n('FEED_MAX_LAG_SECONDS') * 1000,
    },
  ];
}

/** The profile of this run: FAULT_PROFILE=real-time, or the compressed one. */
export function timeProfile(name: string = process.env['FAULT_PROFILE'] ?? 'compressed'): TimeProfile {
  if (name === 'real-time') {
    return {
      name,
      env: { ...REAL_TIME_ENV },
      shortOutageSeconds: 5,
      longOutageSeconds: 60,
      outlasted: outlastedBudgets(REAL_TIME_ENV),
      loadBeforeMs: 2000,
      loadAfterMs: 3000,
      journeyPauseMs: 200,
    };
  }
  if (name !== 'compressed') throw new Error(`FAULT_PROFILE=${name}: expected compressed or real-time`);
  const outlasted = outlastedBudgets(COMPRESSED_ENV);
  const longest = Math.max(...outlasted.map((b) => b.ms));
  return {
    name,
    env: { ...COMPRESSED_ENV },
    shortOutageSeconds: 2,
    // The longest budget, and 3 s more: every budget has run out well before the part comes back.
    longOutageSeconds: Math.ceil(longest / 1000) + 3,
    outlasted,
    loadBeforeMs: 1500,
    loadAfterMs: 1500,
    journeyPauseMs: 2000,
  };
}

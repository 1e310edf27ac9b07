import { rewardsChangedSubject, type RewardsChangedNotice } from '@clipit/contracts';
import { CONFIG, LOGGER, metricOnce, metricsRegistry, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { SESSION_CACHE, type SessionCache } from '../auth/session-cache.js';
import type { GatewayConfig } from '../config.js';
import type { EncodableJson } from '../http/json-compression.js';
import { serialize } from '../feed/read-cache.js';

const lookups = metricOnce(
  'gateway_dashboard_cache_total',
  () =>
    new Counter({
      name: 'gateway_dashboard_cache_total',
      help: 'Dashboard reads by how the dashboard cache answered them',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

interface Entry extends EncodableJson {
  userId: string;
  expiresAt: number;
}

/** When the answer's wallet hold ends (ms since the epoch), if it shows one. */
function holdEndOf(value: unknown): number | undefined {
  const heldUntil = (value as { payoutHold?: { heldUntil?: unknown } } | null)?.payoutHold?.heldUntil;
  if (typeof heldUntil !== 'string') return undefined;
  const at = Date.parse(heldUntil);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Each signed-in user's dashboard answer (GET /api/dashboard) in the replica's memory (ADR 0045): the JSON
 * bytes and ETag of rewards' answer with the session's user, by user id, so it can never be anyone
 * else's. Notices keep it fresh; GATEWAY_DASHBOARD_CACHE_TTL_MS (0: off) bounds a lost notice and what
 * moves with the clock alone (the dashboard's weekly windows), and an answer showing a wallet hold is
 * kept no later than the hold's end. At most GATEWAY_DASHBOARD_CACHE_MAX_ENTRIES (LRU). Dropped:
 * - for the users rewards names in its after-commit notice (core NATS `notices.<prefix>.rewards.changed`),
 *   for everyone when it names no one in particular (a payout run, the daily recompute);
 * - with the user's cached sessions (identity's user events, through the session cache it follows), as
 *   the answer carries the user; everything when the session cache is emptied or the bus cannot be heard
 *   (then nothing is served or kept, like the session cache, until it is back).
 * A load that overlapped any invalidation is answered but not kept: it may predate the change.
 */
@Injectable()
export class DashboardCache implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { epoch: number; answer: Promise<EncodableJson> }>();
  private epoch = 0;
  private subscription: { unsubscribe(): void } | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    sessions.follow(this);
  }

  onModuleInit(): void {
    if (this.config.GATEWAY_DASHBOARD_CACHE_TTL_MS === 0) return;
    this.subscription = this.nc.subscribe(rewardsChangedSubject(this.config.EVENTS_SUBJECT_PREFIX), {
      callback: (err, msg) => {
        if (err) {
          this.log.warn({ err }, 'dashboard cache: rewards notices failed');
          this.clear();
          return;
        }
        this.apply(msg.data);
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether answers are served and kept: configured, and the session cache's invalidations are heard. */
  private get active(): boolean {
    return this.config.GATEWAY_DASHBOARD_CACHE_TTL_MS > 0 && this.sessions.active;
  }

  /** The user's cached dashboard, if fresh. */
  peek(userId: string): EncodableJson | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(userId);
      return undefined;
    }
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    lookups.inc({ outcome: 'hit' });
    return entry;
  }

  /** The user's cached dashboard, or `load`'s answer serialised (kept unless an invalidation came meanwhile). */
  async get(userId: string, load: () => Promise<unknown>): Promise<EncodableJson> {
    const hit = this.peek(userId);
    if (hit) return hit;
    // Concurrent misses of one user share one call to rewards, unless an invalidation came since it started.
    const pending = this.loading.get(userId);
    if (pending && pending.epoch === this.epoch) {
      lookups.inc({ outcome: 'joined' });
      return pending.answer;
    }
    lookups.inc({ outcome: 'miss' });
    const epoch = this.epoch;
    const answer = load().then((value) => this.keep(userId, serialize(value), epoch, holdEndOf(value)));
    const entry = { epoch, answer };
    this.loading.set(userId, entry);
    const done = () => {
      if (this.loading.get(userId) === entry) this.loading.delete(userId);
    };
    answer.then(done, done);
    return answer;
  }

  /** Keeps a loaded answer unless the cache is off or an invalidation came since `epoch`. */
  private keep(userId: string, answer: EncodableJson, epoch: number, holdEnd: number | undefined): EncodableJson {
    if (!this.active || epoch !== this.epoch) return answer;
    const now = Date.now();
    // A wallet hold's end changes the answer with the clock alone: the entry ends with it.
    const expiresAt = Math.min(now + this.config.GATEWAY_DASHBOARD_CACHE_TTL_MS, holdEnd ?? Infinity);
    if (!(expiresAt > now)) return answer;
    const entry: Entry = { ...answer, userId, expiresAt };
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    while (this.entries.size > this.config.GATEWAY_DASHBOARD_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  invalidateUser(userId: string): void {
    this.epoch += 1;
    this.entries.delete(userId);
  }

  clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  /** A rewards notice: the users it names, or everyone when it names no one or cannot be read. */
  private apply(data: Uint8Array): void {
    let notice: Partial<RewardsChangedNotice> | undefined;
    try {
      notice = JSON.parse(new TextDecoder().decode(data)) as Partial<RewardsChangedNotice>;
    } catch {
      notice = undefined;
    }
    const userIds = notice?.userIds;
    if (!notice || notice.all === true || !Array.isArray(userIds) || !userIds.every((id) => typeof id === 'string')) {
      this.clear();
      return;
    }
    for (const userId of userIds) this.invalidateUser(userId);
  }
}

import { createHash } from 'node:crypto';
import { feedChangedSubject } from '@clipit/contracts';
import { CONFIG, LOGGER, metricOnce, metricsRegistry, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { Counter } from 'prom-client';
import { encodedJson, MIN_COMPRESSED_BYTES, varyOnEncoding, type JsonEncoding } from '../http/json-compression.js';

const lookups = metricOnce(
  'gateway_read_cache_total',
  () =>
    new Counter({
      name: 'gateway_read_cache_total',
      help: 'Public reads by how the read cache answered them',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

/** One cached answer: the value (to build on), its JSON bytes and their ETag, and their compressed forms once asked for. */
export interface CachedRead<T = unknown> {
  value: T;
  body: Buffer;
  etag: string;
  encoded?: Partial<Record<JsonEncoding, Buffer>>;
  generation: number;
  expiresAt: number;
}

/** The JSON bytes of a value and their strong ETag. */
export function serialize<T>(value: T): { body: Buffer; etag: string } {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  return { body, etag: etagOf(body) };
}

/** The strong ETag of JSON bytes. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether the request's If-None-Match names this ETag (a list, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends JSON bytes with their ETag, or 304 when the browser holds them. `shared`: the same for every
 * visitor (revalidated each time, `no-cache`); otherwise the answer is the signed-in user's (`private`).
 */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  read: { body: Buffer; etag: string; encoded?: CachedRead['encoded'] },
  shared: boolean,
): FastifyReply {
  // Compressed when the browser takes it (kept with a cached read, so made once per encoding).
  const sent = encodedJson(read, request.headers['accept-encoding']);
  reply.header('ETag', sent.etag);
  reply.header('Cache-Control', shared ? 'no-cache' : 'private, no-cache');
  reply.header('Vary', varyOf(read.body.length));
  if (matchesEtag(request.headers['if-none-match'], sent.etag)) return reply.code(304).send();
  if (sent.encoding) reply.header('Content-Encoding', sent.encoding);
  return reply.type('application/json; charset=utf-8').send(sent.body);
}

/** The Vary of a JSON answer of `size` bytes: by Cookie, and by Accept-Encoding when it is big enough to be compressed. */
export function varyOf(size: number): string {
  return size >= MIN_COMPRESSED_BYTES ? varyOnEncoding('Cookie') : 'Cookie';
}

/**
 * The gateway's cache of public reads (ADR 0022): answers kept in the process by key for at most
 * `PUBLIC_READ_CACHE_TTL_MS`, and all dropped the moment the feed service says it applied an event (a
 * notice on NATS, sent after its commit), so a change shows on the next read. A notice lost while NATS is
 * away only delays that until the time limit. Concurrent misses of one key share one call to the feed
 * service; an answer loaded across a change is handed to its callers but not kept.
 */
@Injectable()
export class PublicReadCache implements OnModuleInit, OnModuleDestroy {
  private generation = 0;
  private readonly entries = new Map<string, CachedRead>();
  private readonly loading = new Map<string, Promise<CachedRead>>();
  /** Request URLs (path and query, as sent) already answered from a key: the front's way in (fast-path.ts). */
  private readonly aliases = new Map<string, ReadAlias>();
  private subscription: { unsubscribe(): void } | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    this.subscription = this.nc.subscribe(feedChangedSubject(this.config.EVENTS_SUBJECT_PREFIX), {
      callback: (err) => {
        if (err) this.log.warn({ err }, 'read cache: feed notices failed');
        else this.invalidate();
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** Drops every cached answer (the read models changed). */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bumped by every invalidation: what was built on a cached answer of an older generation is stale too. */
  get currentGeneration(): number {
    return this.generation;
  }

  /** A fresh cached answer for `key`, if there is one. */
  peek(key: string): CachedRead | undefined {
    if (this.config.PUBLIC_READ_CACHE_TTL_MS === 0) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== this.generation || entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    lookups.inc({ outcome: 'hit' });
    return entry;
  }

  /**
   * Notes that `url` (path and query, exactly as sent) passed the route's checks and was answered with
   * the shared answer under `alias.key`, so the same URL can be answered at the front from then on.
   * What a URL maps to never changes, so aliases outlive invalidations; they are bounded all the same.
   */
  remember(url: string, alias: ReadAlias): void {
    if (this.config.PUBLIC_READ_CACHE_TTL_MS === 0 || this.aliases.has(url)) return;
    this.aliases.set(url, alias);
    if (this.aliases.size > this.config.PUBLIC_READ_CACHE_MAX_ENTRIES * 4) this.aliases.delete(this.aliases.keys().next().value!);
  }

  /** What an already-answered URL reads (remember). */
  aliasOf(url: string): ReadAlias | undefined {
    return this.aliases.get(url);
  }

  /** The cached answer for `key`, or `load`'s (shared with concurrent callers, kept unless a change came meanwhile). */
  async get<T>(key: string, load: () => Promise<T>): Promise<CachedRead<T>> {
    const hit = this.peek(key);
    if (hit) return hit as CachedRead<T>;
    const pending = this.loading.get(key);
    if (pending) {
      lookups.inc({ outcome: 'joined' });
      return pending as Promise<CachedRead<T>>;
    }
    lookups.inc({ outcome: 'miss' });
    const generation = this.generation;
    const promise = load()
      .then((value) => {
        const entry: CachedRead<T> = {
          value,
          ...serialize(value),
          generation,
          expiresAt: Date.now() + this.config.PUBLIC_READ_CACHE_TTL_MS,
        };
        if (generation === this.generation && this.config.PUBLIC_READ_CACHE_TTL_MS > 0) this.store(key, entry);
        return entry;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }

  private store(key: string, entry: CachedRead): void {
    this.entries.delete(key); // re-inserted last: the Map's order is the eviction order
    this.entries.set(key, entry);
    if (this.entries.size > this.config.PUBLIC_READ_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** A URL the front may answer: its cache key, its route's pattern (for the log) and whether only visitors share it. */
export interface ReadAlias {
  key: string;
  route: string;
  visitorOnly: boolean;
}

/** The cache key of a public read: the route, its path parameters and the query parameters that matter. */
export function readKey(request: FastifyRequest, query: readonly string[]): string {
  const params = request.params as Record<string, string> | undefined;
  const q = request.query as Record<string, unknown> | undefined;
  const parts = [request.routeOptions.url ?? request.url.split('?')[0]];
  for (const value of Object.values(params ?? {})) parts.push(value);
  for (const name of query) {
    const value = q?.[name];
    parts.push(typeof value === 'string' ? value : '');
  }
  return parts.join('\u0000');
}

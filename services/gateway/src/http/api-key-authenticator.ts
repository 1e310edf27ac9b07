import { status as GrpcStatus } from '@grpc/grpc-js';
import { eventEnvelopeSchema, subjectFor } from '@clipit/contracts';
import { API_KEY_MESSAGES, isApiKeyScope, isWellFormedApiKey, type ApiKeyScope } from '@clipit/field-rules';
import { CONFIG, GrpcCallError, LOGGER, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { HttpStatus, Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DEVELOPER_CLIENT, type DeveloperClient } from '../clients.js';
import type { GatewayConfig } from '../config.js';
import { HttpErrorWithHeaders } from './http-errors.js';

/** Who a request's API key belongs to and what it may read. */
export interface ApiKeyPrincipal {
  keyId: string;
  userId: string;
  scopes: readonly ApiKeyScope[];
}

/** The most keys a replica keeps at once; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

/** 401 with `WWW-Authenticate: Bearer`, as RFC 6750 asks of a bearer-token API. */
export class ApiKeyRefused extends HttpErrorWithHeaders {
  constructor(message: string) {
    super(message, HttpStatus.UNAUTHORIZED, { 'WWW-Authenticate': 'Bearer realm="clipit-api"' });
  }
}

/**
 * API keys as developer authenticates them (ADR 0053), kept by this replica for at most
 * API_KEY_CACHE_TTL_MS (≤ 1 s), so a revoked key is refused on every replica within 1 s whatever
 * happens to the bus. `apikey.revoked` (developer's outbox, heard on core NATS) drops the key at once.
 * A malformed key, or one whose checksum does not match, is refused without asking developer. Refusals
 * are not kept: a key made a moment ago works on its first request.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, { principal: ApiKeyPrincipal; until: number }>();
  private readonly inFlight = new Map<string, { epoch: number; answer: Promise<ApiKeyPrincipal> }>();
  /** Grows with every revocation heard: an answer asked for before one is used but not kept. */
  private epoch = 0;
  private subscription: { unsubscribe(): void } | undefined;

  constructor(
    @Inject(DEVELOPER_CLIENT) private readonly developer: DeveloperClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    if (this.config.API_KEY_CACHE_TTL_MS === 0) return;
    this.subscription = this.nc.subscribe(subjectFor('apikey.revoked', this.config.EVENTS_SUBJECT_PREFIX), {
      callback: (err, msg) => {
        if (err) {
          this.log.warn({ err }, 'API key cache: revocations cannot be heard; entries end by their lifetime');
          this.clear();
          return;
        }
        this.revoked(() => msg.json());
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** The key's principal; ApiKeyRefused for a key developer does not accept, GrpcCallError when it is away. */
  async authenticate(key: string): Promise<ApiKeyPrincipal> {
    if (!isWellFormedApiKey(key)) throw new ApiKeyRefused(API_KEY_MESSAGES.keyRefused);
    const entry = this.entries.get(key);
    if (entry && entry.until > Date.now()) return entry.principal;
    if (entry) this.entries.delete(key);
    const pending = this.inFlight.get(key);
    if (pending && pending.epoch === this.epoch) return pending.answer;
    const epoch = this.epoch;
    const answer = this.ask(key, epoch);
    const call = { epoch, answer };
    this.inFlight.set(key, call);
    const done = () => {
      if (this.inFlight.get(key) === call) this.inFlight.delete(key);
    };
    answer.then(done, done);
    return answer;
  }

  get size(): number {
    return this.entries.size;
  }

  private async ask(key: string, epoch: number): Promise<ApiKeyPrincipal> {
    let answer;
    try {
      answer = await this.developer.authenticateKey({ key });
    } catch (err) {
      if (err instanceof GrpcCallError && err.code === GrpcStatus.UNAUTHENTICATED) throw new ApiKeyRefused(API_KEY_MESSAGES.keyRefused);
      throw err;
    }
    const principal: ApiKeyPrincipal = { keyId: answer.keyId, userId: answer.userId, scopes: answer.scopes.filter(isApiKeyScope) };
    const now = Date.now();
    // Kept no longer than the key lives, and not at all when a revocation came while developer answered.
    const until = Math.min(now + this.config.API_KEY_CACHE_TTL_MS, answer.expiresAt ? Date.parse(answer.expiresAt) : Infinity);
    if (epoch === this.epoch && until > now) {
      this.entries.set(key, { principal, until });
      while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return principal;
  }

  /** An `apikey.revoked` event: its key goes; one that cannot be read empties the cache rather than guess. */
  private revoked(body: () => unknown): void {
    this.epoch++;
    try {
      const envelope = eventEnvelopeSchema.parse(body());
      const keyId = (envelope.data as { keyId?: unknown }).keyId;
      if (typeof keyId !== 'string') throw new Error('apikey.revoked without a keyId');
      for (const [key, entry] of this.entries) if (entry.principal.keyId === keyId) this.entries.delete(key);
    } catch (err) {
      this.log.warn({ err }, 'API key cache: a revocation could not be read; cache emptied');
      this.clear();
    }
  }

  private clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}

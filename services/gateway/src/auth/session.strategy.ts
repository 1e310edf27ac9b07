import { status as GrpcStatus } from '@grpc/grpc-js';
import { createParamDecorator, Inject, Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { identityV1 } from '@clipit/contracts';
import { GrpcCallError } from '@clipit/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Strategy as CustomStrategy } from 'passport-custom';
import { NOT_SIGNED_IN } from '../http/messages.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { SESSION_CACHE, type SessionCache } from './session-cache.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';

/** Who is calling: the session id from the cookie and the user identity resolved it to. */
export interface SessionPrincipal {
  sid: string;
  user: identityV1.User;
}

// A session id is opaque to the gateway; this only keeps junk (and huge values) away from identity.
const PLAUSIBLE_SID = /^[\w.~+/=-]{16,256}$/;

/** What one ResolveSessionWithExpiry answered, shared by the requests that waited for it. */
interface Resolved {
  user: identityV1.User;
  expiresAt: string;
  renewed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This gateway's session resolver (installSessionResolver), for the process-wide Passport strategy. */
    sessionResolver?: SessionResolver;
  }
}

/**
 * Resolves a request's session: the cookie's session id, resolved by identity in one gRPC call, or from the
 * replica's short-lived session cache (ADR 0004). Unknown or expired → no user (401). Identity
 * being down is an error (503), not "signed out".
 *
 * Only identity's answers are cached, and only live sessions. Identity extends a session (rolling
 * expiry) when it resolves one, so a session used only from the cache still reaches identity at least
 * once per cache TTL (seconds), far more often than the renewal point (half of 14 days) needs. Requests
 * for a sid that is being resolved wait for that answer instead of asking again.
 *
 * A session in use is resolved again ahead of its cache entry's end, in the background (the cache asks,
 * `refreshAhead`), so under load its requests keep being answered from the cache (ADR 0045). Whenever
 * identity says it extended a session, the cache notes it, and the next request of that session that
 * reaches a route re-issues the cookie (the front sends it on until then).
 */
@Injectable()
export class SessionResolver {
  private readonly inFlight = new Map<string, { mark: number; answer: Promise<Resolved | null> }>();
  /** Sessions due for a refresh, asked together (ResolveSessions) when the batch is full or its time is up. */
  private due = new Map<string, { mark: number; settle: (answer: Promise<Resolved | null>) => void }>();
  private dueTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(SESSION_CACHE) private readonly cache: SessionCache,
  ) {
    cache.refreshWith((sid) => void this.refreshAhead(sid));
  }

  async validate(request: FastifyRequest): Promise<SessionPrincipal | null> {
    const sid = request.cookies[SESSION_COOKIE];
    if (!sid) return null;
    if (!PLAUSIBLE_SID.test(sid)) {
      request.sessionRejected = true;
      return null;
    }
    const principal = await this.principal(request, sid);
    // Identity extended the session (now or in a refresh ahead): the browser's cookie must live as long
    // (set when the answer goes out).
    const renewal = this.cache.takeRenewal(sid);
    if (principal && renewal !== undefined) request.renewedSession = { sid, expiresAt: renewal };
    return principal;
  }

  private async principal(request: FastifyRequest, sid: string): Promise<SessionPrincipal | null> {
    // A request waiting for its own writes asks identity itself, which waits until it has applied those it
    // mirrors (stream time, live state: read-your-writes, ADR 0043); the answer refreshes the cache.
    const fresh = (request.readYourWrites?.after.length ?? 0) > 0;
    const cached = fresh ? undefined : this.cache.get(sid);
    if (cached) return { sid, user: cached.user };
    try {
      const resolved = fresh ? await this.call(sid, this.cache.mark()) : await this.resolve(sid);
      return resolved ? { sid, user: resolved.user } : null;
    } catch (err) {
      if (isDeadSession(err)) {
        request.sessionRejected = true;
        return null;
      }
      throw err;
    }
  }

  /**
   * The cache found `sid`'s entry near its end: resolved again now, sharing a call under way. The answer
   * replaces the entry (SessionCache.set); a session identity no longer knows, or an identity error,
   * drops it, so its next request goes through the route and gets identity's answer.
   */
  private async refreshAhead(sid: string): Promise<void> {
    try {
      if (!(await this.refresh(sid))) this.cache.drop(sid);
    } catch {
      this.cache.drop(sid);
    }
  }

  /**
   * A refresh ahead: shares a call under way for `sid`, else joins the next batch. Sessions due are asked
   * together, REFRESH_BATCH_MAX or REFRESH_BATCH_MS after the first (still seconds before their entries
   * end): one call and one query for all of them, where one each cost identity about as much as every
   * signed-in read at the front (ADR 0045). A request that needs `sid` meanwhile waits for the batch.
   */
  private refresh(sid: string): Promise<Resolved | null> {
    return this.shared(sid, (mark) => {
      const answer = new Promise<Resolved | null>((settle) => this.due.set(sid, { mark, settle }));
      if (this.due.size >= REFRESH_BATCH_MAX) this.flushRefreshes();
      else this.dueTimer ??= setTimeout(() => this.flushRefreshes(), REFRESH_BATCH_MS).unref();
      return answer;
    });
  }

  /** Asks identity about every session due for a refresh now (the batch's timer does; tests too). */
  flushRefreshes(): void {
    clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
    const batch = this.due;
    if (batch.size === 0) return;
    this.due = new Map();
    const answered = this.identity
      .resolveSessions({ sids: [...batch.keys()] })
      .then(({ sessions }) => new Map(sessions.map((resolved) => [resolved.session?.sid, resolved])));
    for (const [sid, { mark, settle }] of batch) settle(answered.then((live) => this.keep(sid, live.get(sid), mark)));
  }

  /**
   * One call to identity per sid at a time (with the cache on); the answer is cached unless an
   * invalidation came meanwhile. With GATEWAY_SESSION_CACHE_TTL_MS=0, every request asks identity itself.
   */
  private resolve(sid: string): Promise<Resolved | null> {
    if (!this.cache.configured) return this.call(sid, this.cache.mark());
    return this.shared(sid, (mark) => this.call(sid, mark));
  }

  /**
   * The call under way for `sid`, else the one `start` begins, noted until it settles so that others
   * share it. One started before an invalidation is not shared: its answer may predate it.
   */
  private shared(sid: string, start: (mark: number) => Promise<Resolved | null>): Promise<Resolved | null> {
    const mark = this.cache.mark();
    const pending = this.inFlight.get(sid);
    if (pending && pending.mark === mark) return pending.answer;
    const entry = { mark, answer: start(mark) };
    this.inFlight.set(sid, entry);
    const done = () => {
      if (this.inFlight.get(sid) === entry) this.inFlight.delete(sid);
    };
    entry.answer.then(done, done);
    return entry.answer;
  }

  private call(sid: string, mark: number): Promise<Resolved | null> {
    return this.identity.resolveSessionWithExpiry({ sid }).then((resolved) => this.keep(sid, resolved, mark));
  }

  /** Identity's answer for `sid` (none: no live session), kept in the cache unless an invalidation came since `mark`. */
  private keep(sid: string, resolved: identityV1.ResolvedSession | undefined, mark: number): Resolved | null {
    if (!resolved?.user || !resolved.session) return null;
    const expiresAt = resolved.session.expiresAt;
    if (resolved.renewed) this.cache.noteRenewal(sid, expiresAt);
    this.cache.set(sid, { user: resolved.user, expiresAt }, mark);
    return { user: resolved.user, expiresAt, renewed: resolved.renewed };
  }
}

/** The most sessions one refresh call asks about, and how long the first due waits for others (ms). */
export const REFRESH_BATCH_MAX = 100;
export const REFRESH_BATCH_MS = 100;

/** Identity's refusal of the session itself (unknown, expired): the cookie names nothing. */
function isDeadSession(err: unknown): boolean {
  return err instanceof GrpcCallError && (err.code === GrpcStatus.UNAUTHENTICATED || err.code === GrpcStatus.NOT_FOUND);
}

/**
 * Gives every request this gateway's resolver. Passport keeps strategies in one registry per process, so
 * with two gateways in one process (as the e2e tests run them) the strategy registered last serves both;
 * it therefore holds nothing of its own and asks the resolver of the gateway the request came to.
 */
export function installSessionResolver(fastify: FastifyInstance, resolver: SessionResolver): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.sessionResolver = resolver;
    done();
  });
}

/** Passport strategy "session": the resolver of the gateway the request came to. */
@Injectable()
export class SessionStrategy extends PassportStrategy(CustomStrategy, 'session') {
  validate(request: FastifyRequest): Promise<SessionPrincipal | null> {
    if (!request.sessionResolver) throw new Error('no session resolver on the request: installSessionResolver was not called');
    return request.sessionResolver.validate(request);
  }
}

/** Routes behind it need a live session; everyone else gets 401 'Not signed in'. */
@Injectable()
export class SessionGuard extends AuthGuard('session') {
  override handleRequest<T = SessionPrincipal>(err: unknown, user: T | false | null): T {
    if (err) throw err;
    if (!user) throw new UnauthorizedException(NOT_SIGNED_IN);
    return user;
  }
}

/** The principal a SessionGuard put on the request. */
export const CurrentSession = createParamDecorator((_data: unknown, ctx: ExecutionContext): SessionPrincipal => {
  return ctx.switchToHttp().getRequest<{ user: SessionPrincipal }>().user;
});

/**
 * For routes open to visitors that answer more to a signed-in user (GET /api/following/:id): the
 * principal when the session cookie names a live session, else none; never refuses.
 */
@Injectable()
export class OptionalSessionGuard extends AuthGuard('session') {
  override handleRequest<T = SessionPrincipal>(err: unknown, user: T | false | null): T {
    if (err) throw err;
    return (user || undefined) as T;
  }
}

/** The principal an OptionalSessionGuard found, or undefined for a visitor. */
export const OptionalSession = createParamDecorator((_data: unknown, ctx: ExecutionContext): SessionPrincipal | undefined => {
  return ctx.switchToHttp().getRequest<{ user?: SessionPrincipal }>().user ?? undefined;
});

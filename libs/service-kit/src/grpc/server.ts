import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import {
  Catch,
  Inject,
  Injectable,
  Optional,
  type ArgumentsHost,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type RpcExceptionFilter,
} from '@nestjs/common';
import { RpcException, Transport, type GrpcOptions } from '@nestjs/microservices';
import { Observable, throwError } from 'rxjs';
import { CORRELATION_HEADER, deadlineMsOf, runWithRequestContext } from '../context/correlation.js';
import {
  AFTER_METADATA,
  AFTER_MS_METADATA,
  formatEvents,
  parseEvents,
  READ_AFTER_MAX_MS,
  readYourWrites,
  STALE_METADATA,
  WRITTEN_METADATA,
  type ReadYourWrites,
} from '../context/read-your-writes.js';
import { INBOX_WAITER, type InboxWaiter } from '../bus/inbox-waiter.js';
import { isTransientDatabaseError } from '../bus/transient-errors.js';
import { grpcServerHandled } from '../metrics/metrics.js';
import { DomainError, domainErrorStatus } from './errors.js';
import { GRPC_MAX_MESSAGE_BYTES, protoDefinition } from './proto.js';

/** How long a server keeps a client's connection, and then the calls under way on it (GRPC_MAX_CONNECTION_AGE_MS, …). */
export const GRPC_CONNECTION_AGE_DEFAULTS = { maxConnectionAgeMs: 300_000, maxConnectionAgeGraceMs: 30_000 };

export function grpcServerOptions(opts: {
  packageName: string;
  protoFile: string;
  port: number;
  host?: string;
  maxConnectionAgeMs?: number;
  maxConnectionAgeGraceMs?: number;
}): GrpcOptions {
  return {
    transport: Transport.GRPC,
    options: {
      package: opts.packageName,
      packageDefinition: protoDefinition(opts.protoFile),
      url: `${opts.host ?? '0.0.0.0'}:${opts.port}`,
      maxReceiveMessageLength: GRPC_MAX_MESSAGE_BYTES,
      maxSendMessageLength: GRPC_MAX_MESSAGE_BYTES,
      // On close, calls under way finish before the server goes (every service wants that on SIGTERM).
      gracefulShutdown: true,
      // Each client connection is closed (GOAWAY, its calls given the grace to finish) once it is this old,
      // so the client connects and resolves its target again and balances over replicas added since
      // (ADR 0054); a client's channel reconnects at once, without failing a call.
      channelOptions: {
        'grpc.max_connection_age_ms': opts.maxConnectionAgeMs ?? GRPC_CONNECTION_AGE_DEFAULTS.maxConnectionAgeMs,
        'grpc.max_connection_age_grace_ms': opts.maxConnectionAgeGraceMs ?? GRPC_CONNECTION_AGE_DEFAULTS.maxConnectionAgeGraceMs,
      },
    },
  };
}

/** The part of grpc-js's server call (Nest's third handler argument) the context is read from and answers through. */
interface ServerCallLike {
  getDeadline?: () => unknown;
  sendMetadata?: (metadata: Metadata) => void;
}

/**
 * Carries the caller's correlation id into logs and events for the whole call, and its deadline into the
 * request context (`remainingDeadlineMs`, ADR 0044: work that could not be done in time refuses at once),
 * and counts calls.
 *
 * Read-your-writes (ADR 0043): a call naming its caller's earlier writes (`clipit-after`) first waits, up
 * to the ms it was given (`clipit-after-ms`, never more than READ_AFTER_MAX_MS), until this service's
 * consumer has applied those of them it consumes; past that it runs anyway and answers `clipit-stale: 1`.
 * A call whose transactions committed events answers them (`clipit-written`), for the caller's next reads.
 */
@Injectable()
export class GrpcContextInterceptor implements NestInterceptor {
  constructor(@Optional() @Inject(INBOX_WAITER) private readonly waiter?: InboxWaiter | null) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    const correlationId = metadata?.get?.(CORRELATION_HEADER)?.[0];
    // Nest calls a gRPC handler with (request, metadata, call); grpc-js's call knows the deadline the client
    // sent (grpc-timeout, measured from when the call arrived), Infinity when it sent none.
    const call = context.getArgByIndex<ServerCallLike | undefined>(2);
    const deadline = typeof call?.getDeadline === 'function' ? deadlineMsOf(call.getDeadline()) : undefined;
    const rw = readYourWritesOf(metadata);
    const awaited = rw && this.waiter ? this.waiter.relevant(rw.after) : [];
    const method = context.getHandler().name;
    return new Observable((subscriber) =>
      runWithRequestContext(
        { correlationId: typeof correlationId === 'string' ? correlationId : undefined, deadline, readYourWrites: rw },
        () => {
          let reported = false;
          const run = () =>
            next.handle().subscribe({
              next: (v) => {
                if (!reported && rw) answerReadYourWrites(call, rw);
                reported = true;
                subscriber.next(v);
              },
              error: (err: unknown) => {
                grpcServerHandled.inc({ method, code: GrpcStatus[grpcStatusOf(err)] });
                subscriber.error(err);
              },
              complete: () => {
                grpcServerHandled.inc({ method, code: 'OK' });
                subscriber.complete();
              },
            });
          if (!rw || awaited.length === 0) return run();
          let subscription: { unsubscribe(): void } | undefined;
          let cancelled = false;
          const go = (applied: boolean) => {
            if (!applied) rw.stale = true;
            if (!cancelled) subscription = run();
          };
          // An inbox that cannot be read (a database outage) answers as a wait that ran out: the handler
          // then meets the outage itself, or answers what it has, marked stale.
          this.waiter!.waitFor(awaited, rw.waitUntil).then(go, () => go(false));
          return () => {
            cancelled = true;
            subscription?.unsubscribe();
          };
        },
      ),
    );
  }
}

/** The read-your-writes state of an incoming call: what its caller's reads must show, and for how long it may wait. */
function readYourWritesOf(metadata: Metadata | undefined): ReadYourWrites | undefined {
  if (typeof metadata?.get !== 'function') return undefined;
  const after = parseEvents(metadata.get(AFTER_METADATA)[0]);
  const asked = Number(metadata.get(AFTER_MS_METADATA)[0]);
  const ms = after.length === 0 ? 0 : Number.isFinite(asked) ? Math.min(Math.max(asked, 0), READ_AFTER_MAX_MS) : READ_AFTER_MAX_MS;
  return readYourWrites(after, Date.now() + ms);
}

/** Sends the call's committed events and staleness as response headers (before its message). */
function answerReadYourWrites(call: ServerCallLike | undefined, rw: ReadYourWrites): void {
  if (typeof call?.sendMetadata !== 'function' || (rw.written.length === 0 && !rw.stale)) return;
  const md = new Metadata();
  if (rw.written.length > 0) md.set(WRITTEN_METADATA, formatEvents(rw.written));
  if (rw.stale) md.set(STALE_METADATA, '1');
  call.sendMetadata(md);
}

/** The status a failed call answers (GrpcErrorFilter): a domain error's own, an outage's UNAVAILABLE, else INTERNAL. */
function grpcStatusOf(err: unknown): GrpcStatus {
  if (err instanceof DomainError) return err.code;
  return isTransientDatabaseError(err) ? GrpcStatus.UNAVAILABLE : GrpcStatus.INTERNAL;
}

/**
 * Domain errors become their status code with the message as details (domainErrorStatus: a deliberate
 * UNAVAILABLE tells clients not to retry it). A database the service cannot use
 * right now (out of connections, restarting, unreachable: isTransientDatabaseError, as the event consumer
 * tells outages) is UNAVAILABLE, which callers answer as "try again" (the gateway's 503), not as a fault of
 * the request, and a client may retry a read on another replica; anything else is INTERNAL. Neither
 * carries the error's own text (it names hosts and SQL).
 */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly log: (err: unknown) => void = () => undefined) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    if (exception instanceof DomainError) return throwError(() => domainErrorStatus(exception));
    if (exception instanceof RpcException) return throwError(() => exception.getError());
    this.log(exception);
    if (grpcStatusOf(exception) === GrpcStatus.UNAVAILABLE)
      return throwError(() => ({ code: GrpcStatus.UNAVAILABLE, message: 'The database is unavailable right now' }));
    return throwError(() => ({ code: GrpcStatus.INTERNAL, message: 'Internal error' }));
  }
}

import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import {
  Catch,
  Injectable,
  type ArgumentsHost,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type RpcExceptionFilter,
} from '@nestjs/common';
import { RpcException, Transport, type GrpcOptions } from '@nestjs/microservices';
import { protoRoot } from '@clipit/contracts';
import { Observable, throwError } from 'rxjs';
import { CORRELATION_HEADER, deadlineMsOf, runWithRequestContext } from '../context/correlation.js';
import { isTransientDatabaseError } from '../bus/transient-errors.js';
import { grpcServerHandled } from '../metrics/metrics.js';
import { DOMAIN_ERROR_TRAILER, DomainError, RETRY_AFTER_TRAILER } from './errors.js';

export const GRPC_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * proto-loader settings shared by servers and clients, so both see the same shapes.
 * `oneofs` stays off: with it, every proto3 `optional` field (a synthetic oneof) adds a virtual
 * `_field: 'field'` property to decoded messages, which would leak into JSON answers. Presence of
 * an optional field is still visible: unset optional fields are absent (defaults skip them).
 */
export const protoLoaderOptions = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: false,
  includeDirs: [protoRoot],
};

export function grpcServerOptions(opts: { packageName: string; protoFile: string; port: number; host?: string }): GrpcOptions {
  return {
    transport: Transport.GRPC,
    options: {
      package: opts.packageName,
      protoPath: opts.protoFile,
      url: `${opts.host ?? '0.0.0.0'}:${opts.port}`,
      loader: protoLoaderOptions,
      maxReceiveMessageLength: GRPC_MAX_MESSAGE_BYTES,
      maxSendMessageLength: GRPC_MAX_MESSAGE_BYTES,
      // On close, calls under way finish before the server goes (every service wants that on SIGTERM).
      gracefulShutdown: true,
    },
  };
}

/** The part of grpc-js's server call (Nest's third handler argument) the context is read from. */
interface ServerCallLike {
  getDeadline?: () => unknown;
}

/**
 * Carries the caller's correlation id into logs and events for the whole call, and its deadline into the
 * request context (`remainingDeadlineMs`, ADR 0044: work that could not be done in time refuses at once),
 * and counts calls.
 */
@Injectable()
export class GrpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    const correlationId = metadata?.get?.(CORRELATION_HEADER)?.[0];
    // Nest calls a gRPC handler with (request, metadata, call); grpc-js's call knows the deadline the client
    // sent (grpc-timeout, measured from when the call arrived), Infinity when it sent none.
    const call = context.getArgByIndex<ServerCallLike | undefined>(2);
    const deadline = typeof call?.getDeadline === 'function' ? deadlineMsOf(call.getDeadline()) : undefined;
    const method = context.getHandler().name;
    return new Observable((subscriber) =>
      runWithRequestContext({ correlationId: typeof correlationId === 'string' ? correlationId : undefined, deadline }, () =>
        next.handle().subscribe({
          next: (v) => subscriber.next(v),
          error: (err: unknown) => {
            grpcServerHandled.inc({ method, code: GrpcStatus[grpcStatusOf(err)] });
            subscriber.error(err);
          },
          complete: () => {
            grpcServerHandled.inc({ method, code: 'OK' });
            subscriber.complete();
          },
        }),
      ),
    );
  }
}

/** The status a failed call answers (GrpcErrorFilter): a domain error's own, an outage's UNAVAILABLE, else INTERNAL. */
function grpcStatusOf(err: unknown): GrpcStatus {
  if (err instanceof DomainError) return err.code;
  return isTransientDatabaseError(err) ? GrpcStatus.UNAVAILABLE : GrpcStatus.INTERNAL;
}

/**
 * Domain errors become their status code with the message as details. A database the service cannot use
 * right now (out of connections, restarting, unreachable: isTransientDatabaseError, as the event consumer
 * tells outages) is UNAVAILABLE, which callers answer as "try again" (the gateway's 503), not as a fault of
 * the request; anything else is INTERNAL. Neither carries the error's own text (it names hosts and SQL).
 */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly log: (err: unknown) => void = () => undefined) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    if (exception instanceof DomainError) {
      const metadata = new Metadata();
      metadata.set(DOMAIN_ERROR_TRAILER, '1');
      if (exception.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_TRAILER, String(exception.retryAfterSeconds));
      return throwError(() => ({ code: exception.code, message: exception.message, metadata }));
    }
    if (exception instanceof RpcException) return throwError(() => exception.getError());
    this.log(exception);
    if (grpcStatusOf(exception) === GrpcStatus.UNAVAILABLE)
      return throwError(() => ({ code: GrpcStatus.UNAVAILABLE, message: 'The database is unavailable right now' }));
    return throwError(() => ({ code: GrpcStatus.INTERNAL, message: 'Internal error' }));
  }
}

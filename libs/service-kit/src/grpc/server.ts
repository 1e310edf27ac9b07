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
import { CORRELATION_HEADER, runWithCorrelation, sanitizeCorrelationId } from '../context/correlation.js';
import { isTransientDatabaseError } from '../bus/transient-errors.js';
import { grpcServerHandled } from '../metrics/metrics.js';
import { DOMAIN_ERROR_TRAILER, DomainError } from './errors.js';

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

/** Carries the caller's correlation id into logs and events for the whole call, and counts calls. */
@Injectable()
export class GrpcContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    const id = sanitizeCorrelationId(metadata?.get?.(CORRELATION_HEADER)?.[0]);
    const method = context.getHandler().name;
    return new Observable((subscriber) =>
      runWithCorrelation(id, () =>
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
      return throwError(() => ({ code: exception.code, message: exception.message, metadata }));
    }
    if (exception instanceof RpcException) return throwError(() => exception.getError());
    this.log(exception);
    if (grpcStatusOf(exception) === GrpcStatus.UNAVAILABLE)
      return throwError(() => ({ code: GrpcStatus.UNAVAILABLE, message: 'The database is unavailable right now' }));
    return throwError(() => ({ code: GrpcStatus.INTERNAL, message: 'Internal error' }));
  }
}

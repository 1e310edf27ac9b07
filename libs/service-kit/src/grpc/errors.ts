import { Metadata, status } from '@grpc/grpc-js';

/**
 * A rule of the domain was broken. The owner throws these; the gRPC layer turns them into status
 * codes and the gateway turns those into HTTP answers whose text the person reads.
 */
export class DomainError extends Error {
  constructor(
    readonly code: status,
    message: string,
    /** Seconds after which the same call may succeed (a busy refusal): sent in RETRY_AFTER_TRAILER. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Trailer a service sets on the errors it answers on purpose (a DomainError): their message is written
 * for people, so a gateway may show it even where the status (UNAVAILABLE) usually comes from the
 * transport, whose own texts name hosts and ports.
 */
export const DOMAIN_ERROR_TRAILER = 'clipit-domain-error';

/**
 * Trailer with the whole seconds after which a refused call may be made again (ADR 0044): the gateway
 * answers it as the HTTP Retry-After of its 503.
 */
export const RETRY_AFTER_TRAILER = 'clipit-retry-after';

/**
 * gRPC's own trailer telling a client when it may retry (gRFC A6); a negative value means never. The kit's
 * servers set it to -1 on an UNAVAILABLE they answer on purpose (a busy refusal, an owner they depend on
 * being away): a client's retry policy is for replicas that went away, and sending the same call at once
 * to a busy replica, or to another that depends on the same owner, only adds load.
 */
export const RETRY_PUSHBACK_TRAILER = 'grpc-retry-pushback-ms';

/**
 * The status a server answers for a domain error (GrpcErrorFilter): its code, its words as details, and
 * trailers saying it was meant (DOMAIN_ERROR_TRAILER), when to ask again (RETRY_AFTER_TRAILER) and, for an
 * UNAVAILABLE, that no client may retry it at once (RETRY_PUSHBACK_TRAILER).
 */
export function domainErrorStatus(err: DomainError): { code: status; message: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set(DOMAIN_ERROR_TRAILER, '1');
  if (err.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_TRAILER, String(err.retryAfterSeconds));
  if (err.code === status.UNAVAILABLE) metadata.set(RETRY_PUSHBACK_TRAILER, '-1');
  return { code: err.code, message: err.message, metadata };
}

export const invalid = (message: string) => new DomainError(status.INVALID_ARGUMENT, message);
export const conflict = (message: string) => new DomainError(status.ALREADY_EXISTS, message);
export const notFound = (message: string) => new DomainError(status.NOT_FOUND, message);
export const unauthenticated = (message: string) => new DomainError(status.UNAUTHENTICATED, message);
export const forbidden = (message: string) => new DomainError(status.PERMISSION_DENIED, message);
export const tooMany = (message: string) => new DomainError(status.RESOURCE_EXHAUSTED, message);
export const failedPrecondition = (message: string) => new DomainError(status.FAILED_PRECONDITION, message);
/**
 * The owner is too busy to do this in time and refused it at once, before doing any of it: UNAVAILABLE
 * (503 at the gateway) with the seconds to wait, which the web apps honour before trying again.
 */
export const busy = (message: string, retryAfterSeconds: number) => new DomainError(status.UNAVAILABLE, message, retryAfterSeconds);
/** Something is over a size limit (an upload too large): OUT_OF_RANGE, answered as 413 by the gateway. */
export const tooLarge = (message: string) => new DomainError(status.OUT_OF_RANGE, message);

/** The HTTP status the gateway answers for a gRPC status. */
export function httpStatusFor(code: number): number {
  switch (code) {
    case status.INVALID_ARGUMENT:
      return 400;
    case status.OUT_OF_RANGE:
      return 413;
    case status.UNAUTHENTICATED:
      return 401;
    case status.PERMISSION_DENIED:
      return 403;
    case status.NOT_FOUND:
      return 404;
    case status.ALREADY_EXISTS:
    case status.ABORTED:
    case status.FAILED_PRECONDITION:
      return 409;
    case status.RESOURCE_EXHAUSTED:
      return 429;
    case status.UNIMPLEMENTED:
      return 501;
    case status.UNAVAILABLE:
      return 503;
    case status.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

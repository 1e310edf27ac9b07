import { status } from '@grpc/grpc-js';
import { DomainError, GrpcCallError } from '@clipit/service-kit';
import { messages } from '../domain/messages.js';

/**
 * What a failed call to identity becomes (docs/adr/0014). identity unreachable, or silent past the
 * client's deadline, is UNAVAILABLE in words a person can act on: the check runs before anything is
 * written, so trying again is safe. Anything else (a bug on either side) passes on unchanged.
 */
export function identityCallFailure(err: unknown): unknown {
  if (err instanceof GrpcCallError && (err.code === status.UNAVAILABLE || err.code === status.DEADLINE_EXCEEDED)) {
    return new DomainError(status.UNAVAILABLE, messages.identityUnavailable);
  }
  return err;
}

import { status } from '@grpc/grpc-js';
import { DomainError, GrpcCallError } from '@clipit/service-kit';

/**
 * What a failed call to an owning service becomes for the admin's caller: the owner's own refusal
 * (not found, a forbidden transition, a bad field) passes on with its code and sentence; the owner
 * away is UNAVAILABLE in words an admin can act on; no answer in time is UNAVAILABLE too, saying the
 * outcome is unknown (a command may have been applied), so the admin looks before trying again.
 */
export function ownerFailure(owner: string, err: unknown): DomainError | unknown {
  if (!(err instanceof GrpcCallError)) return err;
  if (err.fromDomain) return new DomainError(err.code, err.message);
  if (err.code === status.UNAVAILABLE)
    return new DomainError(status.UNAVAILABLE, `The ${owner} service is unavailable right now. Please try again shortly.`);
  if (err.code === status.DEADLINE_EXCEEDED) {
    return new DomainError(
      status.UNAVAILABLE,
      `The ${owner} service did not answer in time. Refresh the list to see whether the action was applied.`,
    );
  }
  return err;
}

/** How an audited command ended: the owner refused it (a client's mistake), or it failed (a fault). */
export function auditResultOf(err: unknown): { result: 'refused' | 'failed'; detail: string } {
  const code = err instanceof DomainError || err instanceof GrpcCallError ? err.code : undefined;
  const refused =
    code !== undefined &&
    [
      status.INVALID_ARGUMENT,
      status.NOT_FOUND,
      status.ALREADY_EXISTS,
      status.FAILED_PRECONDITION,
      status.PERMISSION_DENIED,
      status.UNAUTHENTICATED,
      status.OUT_OF_RANGE,
      status.RESOURCE_EXHAUSTED,
    ].includes(code);
  const message = err instanceof Error ? err.message : String(err);
  return { result: refused ? 'refused' : 'failed', detail: message.slice(0, 500) };
}

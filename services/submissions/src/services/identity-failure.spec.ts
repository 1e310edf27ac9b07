import { status } from '@grpc/grpc-js';
import { DomainError, GrpcCallError } from '@clipit/service-kit';
import { describe, expect, it } from '@jest/globals';
import { messages } from '../domain/messages.js';
import { identityCallFailure } from './identity-failure.js';

describe('identityCallFailure', () => {
  it('turns identity unreachable or too slow into UNAVAILABLE with words a person can act on', () => {
    for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED]) {
      const failure = identityCallFailure(
        new GrpcCallError(code, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:50051', 'GetUser'),
      );
      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({ code: status.UNAVAILABLE, message: messages.identityUnavailable });
    }
  });

  it('passes anything else on unchanged, so a bug is not dressed up as an outage', () => {
    for (const err of [
      new GrpcCallError(status.INTERNAL, 'Internal error', 'GetToken'),
      new GrpcCallError(status.INVALID_ARGUMENT, 'bad id', 'GetUser'),
      new Error('boom'),
    ]) {
      expect(identityCallFailure(err)).toBe(err);
    }
  });
});

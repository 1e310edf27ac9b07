import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { GrpcCallError } from './client.js';
import { DomainError } from './errors.js';
import { USER_LOOKUP_MESSAGES, userFromIdentity, type UserLookupPort } from './user-lookup.js';

// The one lookup every owner makes before 'User not found' (ADR 0037): identity's user as it is, its
// NOT_FOUND as the owner's 404 words, identity away as a retryable UNAVAILABLE, anything else as it came.

const answering = (outcome: () => Promise<unknown>): UserLookupPort => ({ getUser: outcome as UserLookupPort['getUser'] });

describe('userFromIdentity', () => {
  it('answers the user identity knows', async () => {
    const user = { id: 'u1', role: 'streamer' };
    await expect(
      userFromIdentity(
        answering(async () => user),
        'u1',
      ),
    ).resolves.toBe(user);
  });

  it("refuses an id identity knows no user by as NOT_FOUND 'User not found'", async () => {
    const identity = answering(async () => {
      throw new GrpcCallError(status.NOT_FOUND, 'User not found', 'GetUser', true);
    });
    await expect(userFromIdentity(identity, 'u1')).rejects.toEqual(new DomainError(status.NOT_FOUND, USER_LOOKUP_MESSAGES.userNotFound));
  });

  it.each([status.UNAVAILABLE, status.DEADLINE_EXCEEDED])(
    'answers identity away (%s) as UNAVAILABLE with a text, never a 404',
    async (code) => {
      const identity = answering(async () => {
        throw new GrpcCallError(code, 'connect ECONNREFUSED', 'GetUser');
      });
      const err = await userFromIdentity(identity, 'u1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: status.UNAVAILABLE, message: USER_LOOKUP_MESSAGES.identityUnavailable });
    },
  );

  it('throws anything else as it came', async () => {
    const boom = new GrpcCallError(status.INTERNAL, 'boom', 'GetUser');
    await expect(
      userFromIdentity(
        answering(async () => Promise.reject(boom)),
        'u1',
      ),
    ).rejects.toBe(boom);
  });
});

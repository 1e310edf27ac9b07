import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { CLIPPER_ID, reader, withReader } from '../../test/support/unit-fixtures.js';
import { messages } from '../domain/messages.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { PeopleRepository, type Person } from '../repositories/people.repository.js';
import { StandingRepository } from '../repositories/standing.repository.js';
import { DirectoryService } from './directory.service.js';

// Whether an id is a user: the people read model first, identity only for an id it has not heard of.

function setup(known: Person | undefined) {
  const identity = automock<IdentityPort>('IdentityPort', ['getUser']);
  const { service, mock } = createTestService(DirectoryService, { [IDENTITY_CLIENT]: identity });
  withReader(mock(StandingRepository));
  const people = mock(PeopleRepository);
  people.find.mockResolvedValue(known);
  return { service, people, identity };
}

const person: Person = {
  id: CLIPPER_ID,
  role: 'clipper',
  displayName: null,
  twitterUsername: 'ada',
  walletAddress: null,
  walletChangedAt: null,
  streamerMultiplier: 1,
  followerCount: 0,
};

describe('DirectoryService.requireUser', () => {
  it('answers from the read model without asking identity', async () => {
    const f = setup(person);
    await expect(f.service.requireUser(CLIPPER_ID)).resolves.toBeUndefined();
    expect(f.people.find).toHaveBeenCalledWith(reader, CLIPPER_ID);
    expect(f.identity.getUser).not.toHaveBeenCalled();
  });

  it('confirms with identity an id whose user.registered has not arrived yet, so a user who just signed up is not refused', async () => {
    const f = setup(undefined);
    f.identity.getUser.mockResolvedValue({ id: CLIPPER_ID, role: 'clipper', updatedAt: '2026-11-28T10:00:00.000Z' } as identityV1.User);
    await expect(f.service.requireUser(CLIPPER_ID)).resolves.toBeUndefined();
    expect(f.identity.getUser).toHaveBeenCalledWith({ id: CLIPPER_ID });
  });

  it('turns identity’s not found into User not found, and its absence into a retryable unavailable', async () => {
    const f = setup(undefined);
    f.identity.getUser.mockRejectedValueOnce(new GrpcCallError(status.NOT_FOUND, 'User not found', 'getUser', true));
    expect(await rejectedWith(f.service.requireUser(CLIPPER_ID), DomainError)).toMatchObject({
      code: status.NOT_FOUND,
      message: messages.userNotFound,
    });
    f.identity.getUser.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'getUser'));
    expect(await rejectedWith(f.service.requireUser(CLIPPER_ID), DomainError)).toMatchObject({
      code: status.UNAVAILABLE,
      message: messages.identityUnavailable,
    });
  });
});

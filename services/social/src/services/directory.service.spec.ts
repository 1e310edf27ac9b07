import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { PersonRow } from '../domain/person.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { DirectoryService } from './directory.service.js';

const ID = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';

function setup(known: PersonRow | undefined) {
  const identity = automock<IdentityPort>('IdentityPort', ['getUser']);
  const { service, mock } = createTestService(DirectoryService, { [IDENTITY_CLIENT]: identity });
  const people = mock(PeopleRepository);
  people.find.mockResolvedValue(known);
  people.upsert.mockResolvedValue(true);
  return { service, people, identity };
}

describe('DirectoryService', () => {
  it('answers from the read model without asking identity', async () => {
    const known: PersonRow = {
      id: ID,
      role: 'streamer',
      displayName: null,
      twitterUsername: 'ada',
      profileImageUrl: null,
      sourceUpdatedAt: new Date(),
    };
    await expect(setup(known).service.require(ID)).resolves.toBe(known);
  });

  it('asks identity about a user whose event has not arrived, and keeps the answer', async () => {
    const f = setup(undefined);
    f.identity.getUser.mockResolvedValue({
      id: ID,
      role: 'streamer',
      twitterUsername: 'ada',
      updatedAt: '2026-11-25T10:00:00.000Z',
    } as identityV1.User);
    await expect(f.service.require(ID)).resolves.toMatchObject({ id: ID, role: 'streamer', twitterUsername: 'ada', displayName: null });
    expect(f.people.upsert).toHaveBeenCalledWith(
      expect.objectContaining({ id: ID, sourceUpdatedAt: new Date('2026-11-25T10:00:00.000Z') }),
    );
  });

  it('turns identity’s not found into User not found, and its absence into a retryable unavailable', async () => {
    const f = setup(undefined);
    f.identity.getUser.mockRejectedValueOnce(new GrpcCallError(status.NOT_FOUND, 'User not found', 'getUser', true));
    expect(await rejectedWith(f.service.require(ID), DomainError)).toMatchObject({ code: status.NOT_FOUND, message: 'User not found' });
    f.identity.getUser.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'getUser'));
    expect(await rejectedWith(f.service.require(ID), DomainError)).toMatchObject({ code: status.UNAVAILABLE });
    expect(f.people.upsert).not.toHaveBeenCalled();
  });
});

import { Outbox } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, profile, tx } from '../../test/support/unit-fixtures.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';

// clipper-profile.changed with the repository and the outbox auto-mocked: the whole public snapshot with
// the profile's next revision, in the caller's transaction; nothing without a profile.

describe('ClipperProfileEventsService.changed', () => {
  it('publishes the profile’s snapshot with its next revision', async () => {
    const { service, mock } = createTestService(ClipperProfileEventsService);
    const stored = profile({ averageRating: '4.50', totalReviews: 2, totalHires: 3, isAvailable: 'false', updatedAt: AT });
    mock(ProfileRepository).nextRevision.mockResolvedValue({ profile: stored, revision: 7 });
    const outbox = mock(Outbox);
    outbox.append.mockResolvedValue(undefined as never);
    await service.changed(tx, CLIPPER_ID);
    expect(outbox.append).toHaveBeenCalledWith(tx, 'clipper-profile.changed', {
      profile: {
        id: stored.id,
        userId: stored.userId,
        displayName: stored.displayName,
        profileImageUrl: stored.profileImageUrl,
        averageRating: 4.5,
        totalReviews: 2,
        totalHires: 3,
        isAvailable: 'false',
        updatedAt: AT.toISOString(),
      },
      revision: 7,
    });
  });

  it('publishes nothing for someone without a profile', async () => {
    const { service, mock } = createTestService(ClipperProfileEventsService);
    mock(ProfileRepository).nextRevision.mockResolvedValue(undefined);
    await service.changed(tx, CLIPPER_ID);
    expect(mock(Outbox).append).not.toHaveBeenCalled();
  });
});

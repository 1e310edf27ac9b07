import { status } from '@grpc/grpc-js';
import { CLIPPER_PROFILE_MESSAGES } from '@clipit/field-rules';
import { TransactionRunner } from '@clipit/service-kit';
import { createTestService, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, profile, refusal, tx } from '../../test/support/unit-fixtures.js';
import { MESSAGES } from '../domain/messages.js';
import type { ClipperServiceRow } from '../domain/profile.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';
import { ClipperProfilesService, editOf } from './clipper-profiles.service.js';

// Clipper profiles with the repository auto-mocked: who can be read, the owner's edit checked by the
// shared rules and stored with its services in one transaction, and what an edit leaves alone.

const SERVICE: ClipperServiceRow = {
  id: 's0000000-0000-4000-8000-000000000001',
  serviceName: 'Highlight reel',
  description: null,
  basePrice: '75',
  deliveryTimeHours: 48,
  isActive: true,
};

function setup() {
  const { service, mock } = createTestService(ClipperProfilesService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const profileEvents = mock(ClipperProfileEventsService);
  profileEvents.changed.mockResolvedValue(undefined);
  return { service, transactions, repo: mock(ProfileRepository), profileEvents };
}

const nothingSent = {
  userId: CLIPPER_ID,
  setPortfolioUrls: false,
  portfolioUrls: [],
  setSpecialties: false,
  specialties: [],
  setSocialLinks: false,
  socialLinks: [],
  setServices: false,
  services: [],
};

describe('ClipperProfilesService.get', () => {
  it('answers the profile with its services, or NOT_FOUND; a bad id is INVALID_ARGUMENT', async () => {
    const f = setup();
    f.repo.find.mockResolvedValueOnce(profile());
    f.repo.services.mockResolvedValue([SERVICE]);
    await expect(f.service.get({ userId: CLIPPER_ID })).resolves.toMatchObject({
      userId: CLIPPER_ID,
      clipperTier: 'gold',
      services: [{ serviceName: 'Highlight reel', basePrice: '75.00' }],
    });
    f.repo.find.mockResolvedValueOnce(undefined);
    expect(await refusal(f.service.get({ userId: CLIPPER_ID }))).toEqual({
      code: status.NOT_FOUND,
      message: CLIPPER_PROFILE_MESSAGES.notFound,
    });
    expect(await refusal(f.service.get({ userId: 'casey' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidClipperId,
    });
  });
});

describe('ClipperProfilesService.update', () => {
  it('stores the checked edit and its services under the profile lock, and answers the profile as stored', async () => {
    const f = setup();
    f.repo.lock.mockResolvedValue(profile());
    f.repo.update.mockResolvedValue(undefined);
    f.repo.replaceServices.mockResolvedValue(undefined);
    f.repo.find.mockResolvedValue(profile({ bio: 'Fast cuts', isAvailable: 'false' }));
    f.repo.services.mockResolvedValue([SERVICE]);
    const request = {
      ...nothingSent,
      bio: '  Fast cuts  ',
      isAvailable: 'false',
      setServices: true,
      services: [{ serviceName: 'Highlight reel', basePrice: '75', deliveryTimeHours: 48, isActive: true }],
    };
    const answer = await f.service.update(request, AT);

    expect(f.repo.lock).toHaveBeenCalledWith(tx, CLIPPER_ID);
    const [, , draft, when] = f.repo.update.mock.calls[0]!;
    expect(draft).toMatchObject({ bio: 'Fast cuts', isAvailable: 'false' });
    expect(draft).not.toHaveProperty('portfolioUrls');
    expect(when).toBe(AT);
    expect(f.repo.replaceServices).toHaveBeenCalledWith(tx, CLIPPER_ID, [expect.objectContaining({ serviceName: 'Highlight reel' })], AT);
    expect(f.repo.find).toHaveBeenCalledWith(CLIPPER_ID, tx);
    expect(answer).toMatchObject({ bio: 'Fast cuts', isAvailable: 'false', services: [{ id: SERVICE.id }] });
    expect(f.profileEvents.changed).toHaveBeenCalledWith(tx, CLIPPER_ID);
  });

  it('leaves the services alone when none were sent', async () => {
    const f = setup();
    f.repo.lock.mockResolvedValue(profile());
    f.repo.update.mockResolvedValue(undefined);
    f.repo.find.mockResolvedValue(profile());
    f.repo.services.mockResolvedValue([]);
    await f.service.update({ ...nothingSent, yearsExperience: 3 }, AT);
    expect(f.repo.replaceServices).not.toHaveBeenCalled();
  });

  it('refuses a bad id and the rule’s first error before the transaction, and a missing profile inside it', async () => {
    const f = setup();
    expect(await refusal(f.service.update({ ...nothingSent, userId: 'casey' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidClipperId,
    });
    expect(await refusal(f.service.update({ ...nothingSent, yearsExperience: 61 }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: CLIPPER_PROFILE_MESSAGES.yearsRange,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
    f.repo.lock.mockResolvedValue(undefined);
    expect(await refusal(f.service.update(nothingSent))).toEqual({ code: status.NOT_FOUND, message: CLIPPER_PROFILE_MESSAGES.notFound });
    expect(f.repo.update).not.toHaveBeenCalled();
  });
});

describe('editOf', () => {
  it('keeps absent fields absent and a sent empty list as an empty list (it clears)', () => {
    expect(editOf(nothingSent)).toEqual({});
    expect(editOf({ ...nothingSent, setSpecialties: true, hourlyRate: '20' })).toEqual({ specialties: [], hourlyRate: '20' });
  });
});

import { Outbox } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, STREAMER_ID, TABLES, tx } from '../../test/support/unit-fixtures.js';
import { PeopleRepository, type MultiplierRecord } from '../repositories/people.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { StreamerMultiplierService } from './streamer-multiplier.service.js';

// The applied multiplier's publisher with its repositories and the outbox auto-mocked (the rule runs for
// real, domain/earning.ts): published once per change, with the next revision, in the caller's transaction.

function setup(record: MultiplierRecord | undefined) {
  const { service, mock } = createTestService(StreamerMultiplierService);
  mock(TiersRepository).current.mockResolvedValue(TABLES);
  const people = mock(PeopleRepository);
  people.lockMultiplier.mockResolvedValue(record);
  people.saveAppliedMultiplier.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, people, outbox };
}

const streamer = (patch: Partial<MultiplierRecord> = {}): MultiplierRecord => ({
  id: STREAMER_ID,
  role: 'streamer',
  streamerMultiplier: 1,
  followerCount: 100,
  appliedMultiplier: 1.1,
  revision: 3,
  ...patch,
});

describe('StreamerMultiplierService.reconcile', () => {
  it('stores and publishes the step a streamer has crossed, with the next revision', async () => {
    const f = setup(streamer());
    await expect(f.service.reconcile(tx, STREAMER_ID, AT)).resolves.toBe(true);
    const multiplier = TABLES.steps.filter((s) => s.minFollowers <= 100).at(-1)!.multiplier;
    expect(f.people.saveAppliedMultiplier).toHaveBeenCalledWith(tx, STREAMER_ID, multiplier, 4);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.streamer-multiplier-changed', {
      userId: STREAMER_ID,
      multiplier,
      followerCount: 100,
      revision: 4,
      at: AT.toISOString(),
    });
  });

  it('publishes nothing when the multiplier is what was last told, or for someone unknown', async () => {
    const same = setup(streamer({ followerCount: 5 }));
    await expect(same.service.reconcile(tx, STREAMER_ID, AT)).resolves.toBe(false);
    expect(same.outbox.append).not.toHaveBeenCalled();
    const unknown = setup(undefined);
    await expect(unknown.service.reconcile(tx, STREAMER_ID, AT)).resolves.toBe(false);
    expect(unknown.outbox.append).not.toHaveBeenCalled();
  });
});

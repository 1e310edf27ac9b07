import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, daysBefore, reader, standing, TABLES, tx, withReader } from '../../test/support/unit-fixtures.js';
import type { ApprovedClip, ClipperFacts } from '../domain/rules.js';
import { StandingRepository } from '../repositories/standing.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { RECOMPUTE_BATCH, StandingService } from './standing.service.js';

// Recomputing standings with the repositories and the outbox auto-mocked (the rules run for real): what
// is saved, when the revision moves, and that rewards.standing-changed goes out only for a change.

const clip = (days: number, views: number): ApprovedClip => ({ approvedAt: daysBefore(days), views, streamerMultiplier: 1 });
// 10 approved clips in the window, none rejected, 600 views each: Silver's every requirement.
const SILVER_FACTS: ClipperFacts = { approved: Array.from({ length: 10 }, (_, i) => clip(i + 1, 600)), rejectedCount: 0 };

function setup() {
  const { service, mock } = createTestService(StandingService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  mock(TiersRepository).current.mockResolvedValue(TABLES);
  const standings = withReader(mock(StandingRepository));
  standings.save.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, transactions, standings, submissions: mock(SubmissionRepository), outbox };
}

describe('StandingService.recompute', () => {
  it('raises a clipper to the tier their facts meet, saves the next revision and publishes the change', async () => {
    const f = setup();
    f.standings.lock.mockResolvedValue(standing({ revision: 3 }));
    f.submissions.factsOf.mockResolvedValue(SILVER_FACTS);
    const after = await f.service.recompute(tx, CLIPPER_ID, AT);

    expect(f.standings.lock).toHaveBeenCalledWith(tx, CLIPPER_ID);
    // 10 × 10 × 1 + 6,000 / 10 = 700 points; Silver, multipliers from here on.
    expect(after).toMatchObject({ clipPoints: 700, clipperTier: 'silver', currentTier: 2, revision: 4, lastClipPointsUpdate: AT });
    expect(f.standings.save).toHaveBeenCalledWith(tx, [after]);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.standing-changed', {
      userId: CLIPPER_ID,
      clipPoints: 700,
      clipperTier: 'silver',
      currentTier: 2,
      revision: 4,
      at: AT.toISOString(),
    });
  });

  it('keeps the revision and publishes nothing when points and tiers did not move (the time of the recompute is still saved)', async () => {
    const f = setup();
    const held = standing({ clipPoints: 700, clipperTier: 'silver', currentTier: 2, revision: 4 });
    f.standings.lock.mockResolvedValue(held);
    f.submissions.factsOf.mockResolvedValue(SILVER_FACTS);
    const after = await f.service.recompute(tx, CLIPPER_ID, AT);
    expect(after).toMatchObject({ revision: 4, lastClipPointsUpdate: AT });
    expect(f.standings.save).toHaveBeenCalledWith(tx, [after]);
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('never lowers a tier once held: a quiet Gold clipper keeps Gold while the points halve', async () => {
    const f = setup();
    f.standings.lock.mockResolvedValue(standing({ clipPoints: 1000, clipperTier: 'gold', currentTier: 3, revision: 9 }));
    f.submissions.factsOf.mockResolvedValue({ approved: [clip(30, 100)], rejectedCount: 0 });
    const after = await f.service.recompute(tx, CLIPPER_ID, AT);
    // (10 + 100 / 10) halved after 14 days without an approval: 10.
    expect(after).toMatchObject({ clipPoints: 10, clipperTier: 'gold', currentTier: 3, revision: 10 });
  });

  it('starts a first standing at revision 1', async () => {
    const f = setup();
    f.standings.lock.mockResolvedValue(undefined);
    f.submissions.factsOf.mockResolvedValue({ approved: [], rejectedCount: 1 });
    await expect(f.service.recompute(tx, CLIPPER_ID, AT)).resolves.toMatchObject({ clipPoints: 0, currentTier: 1, revision: 1 });
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
  });
});

describe('StandingService.recomputeAll', () => {
  it('walks every clipper in batches, one transaction each, and counts the standings that changed', async () => {
    const f = setup();
    const first = Array.from({ length: RECOMPUTE_BATCH }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    f.standings.idsAfter.mockResolvedValueOnce(first).mockResolvedValueOnce([CLIPPER_ID]).mockResolvedValueOnce([]);
    f.standings.lockMany.mockImplementation(async (_tx, ids) => new Map(ids.map((id) => [id, standing({ userId: id })])));
    f.submissions.factsOfMany.mockImplementation(async (_tx, ids) => new Map(ids.includes(CLIPPER_ID) ? [[CLIPPER_ID, SILVER_FACTS]] : []));

    await expect(f.service.recomputeAll(AT)).resolves.toEqual({ clippers: RECOMPUTE_BATCH + 1, changed: 1 });
    expect(f.standings.idsAfter.mock.calls).toEqual([
      [reader, null, RECOMPUTE_BATCH],
      [reader, first.at(-1), RECOMPUTE_BATCH],
      [reader, CLIPPER_ID, RECOMPUTE_BATCH],
    ]);
    expect(f.transactions.run).toHaveBeenCalledTimes(2);
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledWith(
      tx,
      'rewards.standing-changed',
      expect.objectContaining({ userId: CLIPPER_ID, revision: 2 }),
    );
  });
});

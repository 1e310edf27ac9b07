import { Outbox } from '@clipit/service-kit';
import { createTestService, submissionSnapshot, userSnapshot } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, standing, STREAMER_ID, TABLES, tx } from '../../test/support/unit-fixtures.js';
import { EarningRepository, type EarningRow } from '../repositories/earning.repository.js';
import { PeopleRepository, type Person } from '../repositories/people.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { TiersRepository } from '../repositories/tiers.repository.js';
import { ProjectionsService } from './projections.service.js';
import { StandingService } from './standing.service.js';
import { StreamerMultiplierService } from './streamer-multiplier.service.js';

// Rewards' event handlers in the consumer's transaction, with the read models, the standing collaborator
// and the outbox auto-mocked (the earning rule runs for real, domain/earning.ts): the multiplier a clip
// captures, the one earning an approval makes, and rewards.earning-created only for a new one.

const streamer = (patch: Partial<Person> = {}): Person => ({
  id: STREAMER_ID,
  role: 'streamer',
  displayName: 'Sam',
  twitterUsername: 'sam',
  walletAddress: null,
  walletChangedAt: null,
  streamerMultiplier: 1,
  followerCount: 1500,
  ...patch,
});

function setup(heldTier: number) {
  const { service, mock } = createTestService(ProjectionsService);
  mock(TiersRepository).current.mockResolvedValue(TABLES);
  const standingService = mock(StandingService);
  standingService.recompute.mockResolvedValue(standing({ currentTier: heldTier }));
  const earnings = mock(EarningRepository);
  earnings.add.mockResolvedValue(true);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, people: mock(PeopleRepository), submissions: mock(SubmissionRepository), earnings, standing: standingService, outbox };
}

const approved = (patch: Parameters<typeof submissionSnapshot>[0] = {}) =>
  submissionSnapshot({ userId: CLIPPER_ID, streamerId: STREAMER_ID, ...patch });

/** Makes the upsert ask for the multiplier, as the repository does when the change approves the clip. */
const upsertApproving = (f: ReturnType<typeof setup>, newlyApproved = true) =>
  f.submissions.upsert.mockImplementation(async (_tx, _s, atApproval) => {
    if (newlyApproved) await atApproval();
    return { applied: true, newlyApproved };
  });

describe('ProjectionsService.onSubmission', () => {
  it('makes one earning at the held tier’s rate times the multiplier the clip captured, and publishes it', async () => {
    const f = setup(2);
    f.people.find.mockResolvedValue(streamer());
    upsertApproving(f);
    const clip = approved();
    await f.service.onSubmission({ submission: clip }, tx, AT);

    expect(f.standing.recompute).toHaveBeenCalledWith(tx, CLIPPER_ID, AT);
    // The streamer is read once: the clip's captured multiplier is the earning's.
    expect(f.people.find.mock.calls).toEqual([[tx, STREAMER_ID]]);
    const [addTx, earning] = f.earnings.add.mock.calls[0]!;
    expect(addTx).toBe(tx);
    // Silver's 15 × 1.5 (1,500 followers).
    expect(earning).toMatchObject({
      userId: CLIPPER_ID,
      submissionId: clip.id,
      tierLevel: 2,
      multiplier: 1.5,
      amount: '22.5',
      createdAt: AT,
    });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.earning-created', {
      earningId: earning.id,
      userId: CLIPPER_ID,
      submissionId: clip.id,
      amount: '22.5',
      at: AT.toISOString(),
    });
  });

  it('pays a Bronze clipper Bronze’s rate without the multiplier', async () => {
    const f = setup(1);
    f.people.find.mockResolvedValue(streamer({ streamerMultiplier: 2 }));
    upsertApproving(f);
    await f.service.onSubmission({ submission: approved() }, tx, AT);
    expect(f.earnings.add.mock.calls[0]![1]).toMatchObject({ tierLevel: 1, multiplier: 1, amount: '10' });
  });

  it('captures 1 for an untagged clip without reading anyone', async () => {
    const f = setup(3);
    let captured: number | undefined;
    f.submissions.upsert.mockImplementation(async (_tx, _s, atApproval) => {
      captured = await atApproval();
      return { applied: true, newlyApproved: true };
    });
    await f.service.onSubmission({ submission: approved({ streamerId: null }) }, tx, AT);
    expect(captured).toBe(1);
    expect(f.people.find).not.toHaveBeenCalled();
    expect(f.earnings.add.mock.calls[0]![1]).toMatchObject({ tierLevel: 3, multiplier: 1, amount: '25' });
  });

  it('recomputes the standing but makes no earning for a change that is not a new approval', async () => {
    const f = setup(2);
    upsertApproving(f, false);
    await f.service.onSubmission({ submission: approved({ views: 900 }) }, tx, AT);
    expect(f.standing.recompute).toHaveBeenCalledTimes(1);
    expect(f.earnings.add).not.toHaveBeenCalled();
  });

  it('does nothing more for an event older than the row', async () => {
    const f = setup(2);
    f.submissions.upsert.mockResolvedValue({ applied: false, newlyApproved: false });
    await f.service.onSubmission({ submission: approved() }, tx, AT);
    expect(f.standing.recompute).not.toHaveBeenCalled();
    expect(f.earnings.add).not.toHaveBeenCalled();
  });

  it('publishes nothing when the submission already has its earning (a redelivered approval)', async () => {
    const f = setup(2);
    f.people.find.mockResolvedValue(streamer());
    upsertApproving(f);
    f.earnings.add.mockResolvedValue(false);
    await f.service.onSubmission({ submission: approved() }, tx, AT);
    expect(f.outbox.append).not.toHaveBeenCalled();
  });
});

describe('ProjectionsService holds (ADR 0050)', () => {
  const flag = { causes: ['reupload' as const], reasons: ['Its video matches a clip submitted earlier by another clipper.'] };
  const existing = (patch: Partial<EarningRow> = {}): EarningRow => ({
    id: '5f0c2c2e-8a55-4d1e-9d1b-6e0f3b9a0c11',
    userId: CLIPPER_ID,
    submissionId: 'sub-1',
    amount: '15.000000',
    type: 'post',
    status: 'pending',
    periodStart: null,
    periodEnd: null,
    txHash: null,
    payoutId: null,
    createdAt: AT,
    holdReasons: null,
    heldAt: null,
    decidedCauses: null,
    decision: null,
    ...patch,
  });

  it('creates the earning of a clip approved while flagged held, and publishes it held', async () => {
    const f = setup(2);
    f.people.find.mockResolvedValue(streamer());
    upsertApproving(f);
    const clip = approved({ hold: flag });
    await f.service.onSubmission({ submission: clip }, tx, AT);
    const [, earning] = f.earnings.add.mock.calls[0]!;
    expect(earning.hold).toEqual(flag);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.earning-held', {
      earningId: earning.id,
      userId: CLIPPER_ID,
      submissionId: clip.id,
      amount: '22.5',
      reasons: flag.reasons,
      at: AT.toISOString(),
    });
  });

  it('holds a pending earning when a later snapshot flags its clip', async () => {
    const f = setup(2);
    upsertApproving(f, false);
    f.earnings.lockBySubmission.mockResolvedValue(existing());
    f.earnings.hold.mockResolvedValue(true);
    await f.service.onSubmission({ submission: approved({ hold: flag }) }, tx, AT);
    expect(f.earnings.hold).toHaveBeenCalledWith(tx, existing().id, flag, AT);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.earning-held', expect.objectContaining({ reasons: flag.reasons }));
  });

  it('leaves an earning an admin released on the same causes, one in a payout, and one already held', async () => {
    for (const earning of [existing({ decidedCauses: ['reupload'] }), existing({ payoutId: 'p-1' }), existing({ status: 'held' })]) {
      const f = setup(2);
      upsertApproving(f, false);
      f.earnings.lockBySubmission.mockResolvedValue(earning);
      await f.service.onSubmission({ submission: approved({ hold: flag }) }, tx, AT);
      expect(f.earnings.hold).not.toHaveBeenCalled();
      expect(f.outbox.append).not.toHaveBeenCalled();
    }
  });
});

describe('ProjectionsService people', () => {
  it('keeps users and follower counts in the people model, and reconciles the streamer’s applied multiplier after each', async () => {
    const { service, mock } = createTestService(ProjectionsService);
    const people = mock(PeopleRepository);
    people.upsertUser.mockResolvedValue(undefined);
    people.setFollowerCount.mockResolvedValue(undefined);
    const multipliers = mock(StreamerMultiplierService);
    multipliers.reconcile.mockResolvedValue(true);
    const user = userSnapshot('streamer', { id: STREAMER_ID });
    await service.onUser({ user }, tx, AT);
    await service.onFollowChange({ followerId: CLIPPER_ID, userId: STREAMER_ID, followerCount: 101, at: AT.toISOString() }, tx, AT);
    expect(people.upsertUser).toHaveBeenCalledWith(tx, user);
    expect(people.setFollowerCount).toHaveBeenCalledWith(tx, STREAMER_ID, 101, AT.toISOString());
    expect(multipliers.reconcile.mock.calls).toEqual([
      [tx, STREAMER_ID, AT],
      [tx, STREAMER_ID, AT],
    ]);
  });

  it('reads no multiplier for a clipper’s user event: only a streamer has one to tell', async () => {
    const { service, mock } = createTestService(ProjectionsService);
    mock(PeopleRepository).upsertUser.mockResolvedValue(undefined);
    const multipliers = mock(StreamerMultiplierService);
    await service.onUser({ user: userSnapshot('clipper', { id: CLIPPER_ID }) }, tx, AT);
    expect(multipliers.reconcile).not.toHaveBeenCalled();
  });
});

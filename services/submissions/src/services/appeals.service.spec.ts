import { status } from '@grpc/grpc-js';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { AT, clockAt, runTransactions, submission, SUBMISSION_ID, tx, USER_ID } from '../../test/support/unit-fixtures.js';
import { newAppeal } from '../domain/appeal.js';
import { AppealRepository } from '../repositories/appeal.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { AppealsService } from './appeals.service.js';
import { ModerationService } from './moderation.service.js';

// Appeals (ADR 0051) with their repositories and moderation mocked: what each filing and decision writes,
// in one transaction, and what an overturn asks of moderation.

const APPEAL_ID = '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f';
const EARNING_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

function setup() {
  const { service, mock } = createTestService(AppealsService);
  const appeals = mock(AppealRepository);
  const submissions = mock(SubmissionRepository);
  const moderation = mock(ModerationService);
  const outbox = mock(Outbox);
  runTransactions(mock(TransactionRunner));
  appeals.insert.mockResolvedValue(undefined);
  appeals.save.mockResolvedValue(undefined);
  appeals.kindsOf.mockResolvedValue([]);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, appeals, submissions, moderation, outbox };
}

describe('AppealsService', () => {
  clockAt();
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('files an appeal of a rejection with its reason, and writes appeal.filed in the same transaction', async () => {
    f.submissions.lockById.mockResolvedValue(submission({ status: 'rejected', rejectedReason: 'Not a clip' }));
    const answer = await f.service.file({ submissionId: SUBMISSION_ID, userId: USER_ID, text: '  mine  ' }, AT);
    expect(answer).toMatchObject({ kind: 'rejection', status: 'pending', text: 'mine', rejectedReason: 'Not a clip' });
    expect(f.appeals.insert).toHaveBeenCalledWith(tx, expect.objectContaining({ kind: 'rejection', text: 'mine' }));
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'appeal.filed', {
      appeal: expect.objectContaining({ kind: 'rejection', status: 'pending' }),
    });
  });

  it('answers a filing that lost the race to the unique constraint as a second appeal', async () => {
    f.submissions.lockById.mockResolvedValue(submission({ status: 'rejected' }));
    const driverError = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'appeals_submission_id_kind_key' });
    f.appeals.insert.mockRejectedValue(new QueryFailedError('INSERT INTO appeals ...', [], driverError));
    const err = await rejectedWith(f.service.file({ submissionId: SUBMISSION_ID, userId: USER_ID, text: 'mine' }), DomainError);
    expect([err.code, err.message]).toEqual([status.ALREADY_EXISTS, 'You have already appealed this decision']);
  });

  it('approves the clip through moderation when a rejection is overturned, then writes appeal.decided', async () => {
    const appeal = newAppeal(APPEAL_ID, submission({ status: 'rejected', rejectedReason: 'Not a clip' }), 'rejection', 'mine', AT);
    f.appeals.lockById.mockResolvedValue(appeal);
    f.moderation.approveOnAppeal.mockResolvedValue(submission({ status: 'approved' }));
    const answer = await f.service.decide({ appealId: APPEAL_ID, outcome: 'overturned', reason: ' fair ', decidedBy: 'tok-1' }, AT);
    expect(f.moderation.approveOnAppeal).toHaveBeenCalledWith(tx, SUBMISSION_ID, AT);
    expect(answer).toMatchObject({ status: 'overturned', decisionReason: 'fair', decidedBy: 'tok-1' });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'appeal.decided', {
      appeal: expect.objectContaining({
        status: 'overturned',
        decision: { outcome: 'overturned', reason: 'fair', by: 'tok-1', at: AT.toISOString() },
      }),
    });
  });

  it('leaves the clip to rewards when a hold is overturned, and changes nothing else when upheld', async () => {
    const held = submission({ status: 'approved', earningHold: 'held', earningId: EARNING_ID, earningHoldReasons: ['A copy'] });
    f.submissions.findById.mockResolvedValue(held);
    f.appeals.lockById.mockResolvedValueOnce(newAppeal(APPEAL_ID, held, 'hold', 'mine', AT));
    await f.service.decide({ appealId: APPEAL_ID, outcome: 'overturned', reason: 'fair', decidedBy: 'tok-1' }, AT);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'appeal.decided', {
      appeal: expect.objectContaining({ kind: 'hold', earningId: EARNING_ID }),
    });
    f.appeals.lockById.mockResolvedValueOnce(newAppeal(APPEAL_ID, submission({ status: 'rejected' }), 'rejection', 'mine', AT));
    await f.service.decide({ appealId: APPEAL_ID, outcome: 'upheld', reason: 'no', decidedBy: 'tok-1' }, AT);
    expect(f.moderation.approveOnAppeal).not.toHaveBeenCalled();
  });

  it('mirrors a hold event only when it is newer than the one applied', async () => {
    const row = submission({ status: 'approved' });
    f.submissions.lockById.mockResolvedValue(row);
    f.submissions.save.mockResolvedValue(undefined);
    const data = {
      earningId: EARNING_ID,
      userId: USER_ID,
      submissionId: SUBMISSION_ID,
      amount: '10',
      reasons: ['A copy'],
      at: AT.toISOString(),
    };
    await f.service.onEarningHeld(data, tx);
    expect(row).toMatchObject({ earningHold: 'held', earningId: EARNING_ID, earningHoldReasons: ['A copy'] });
    await f.service.onEarningHeld(data, tx);
    expect(f.submissions.save).toHaveBeenCalledTimes(1);
  });
});

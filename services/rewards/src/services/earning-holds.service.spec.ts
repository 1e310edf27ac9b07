import { status } from '@grpc/grpc-js';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIPPER_ID, daysBefore, reader, tx, withReader } from '../../test/support/unit-fixtures.js';
import { messages } from '../domain/messages.js';
import { EarningRepository, type EarningRow } from '../repositories/earning.repository.js';
import { StandingRepository } from '../repositories/standing.repository.js';
import { EarningHoldsService } from './earning-holds.service.js';

// An admin's decisions on held earnings (ADR 0050), with the repositories and the outbox auto-mocked:
// what is refused and how, what a decision writes and publishes.

const EARNING_ID = '7a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a44';
const SUBMISSION_ID = '8b2f3c4d-5e6f-4a71-9b8c-0d1e2f3a4b55';

const held = (patch: Partial<EarningRow> = {}): EarningRow => ({
  id: EARNING_ID,
  userId: CLIPPER_ID,
  submissionId: SUBMISSION_ID,
  amount: '15.000000',
  type: 'post',
  status: 'held',
  periodStart: null,
  periodEnd: null,
  txHash: null,
  payoutId: null,
  createdAt: daysBefore(2),
  holdReasons: ['It duplicates a clip you submitted earlier.'],
  heldAt: daysBefore(2),
  decidedCauses: null,
  decision: null,
  ...patch,
});

function setup() {
  const { service, mock } = createTestService(EarningHoldsService);
  runTransactionsWith(mock(TransactionRunner), tx);
  withReader(mock(StandingRepository));
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, earnings: mock(EarningRepository), outbox };
}

const refusal = async (call: Promise<unknown>) => {
  const err = await rejectedWith(call, DomainError);
  return { code: err.code, message: err.message };
};

describe('EarningHoldsService', () => {
  it('releases a held earning with the trimmed reason: pending again, published with who and why', async () => {
    const f = setup();
    f.earnings.lock.mockResolvedValue(held());
    f.earnings.decide.mockResolvedValue(true);
    const answer = await f.service.release({ earningId: EARNING_ID, reason: '  the original is theirs  ', actor: 'tok-1' }, AT);
    const decision = { decision: 'released' as const, by: 'tok-1', reason: 'the original is theirs', at: AT };
    expect(f.earnings.decide).toHaveBeenCalledWith(tx, EARNING_ID, 'pending', decision);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.earning-released', {
      earningId: EARNING_ID,
      userId: CLIPPER_ID,
      submissionId: SUBMISSION_ID,
      amount: '15',
      by: 'tok-1',
      reason: 'the original is theirs',
      at: AT.toISOString(),
    });
    expect(answer.userId).toBe(CLIPPER_ID);
    expect(answer.hold).toMatchObject({ earningId: EARNING_ID, status: 'pending', decision: { decision: 'released', by: 'tok-1' } });
  });

  it('voids a held earning: never paid', async () => {
    const f = setup();
    f.earnings.lock.mockResolvedValue(held());
    f.earnings.decide.mockResolvedValue(true);
    const answer = await f.service.void({ earningId: EARNING_ID, reason: 'a copy', actor: 'tok-1' }, AT);
    expect(f.earnings.decide).toHaveBeenCalledWith(tx, EARNING_ID, 'voided', expect.objectContaining({ decision: 'voided' }));
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'rewards.earning-voided', expect.objectContaining({ reason: 'a copy' }));
    expect(answer.hold.status).toBe('voided');
  });

  it('refuses an unknown earning, one not held, and a missing or long reason', async () => {
    const f = setup();
    f.earnings.lock.mockResolvedValueOnce(undefined);
    expect(await refusal(f.service.release({ earningId: EARNING_ID, reason: 'ok', actor: 'tok-1' }))).toEqual({
      code: status.NOT_FOUND,
      message: messages.earningNotFound,
    });
    f.earnings.lock.mockResolvedValueOnce(held({ status: 'pending' }));
    expect(await refusal(f.service.void({ earningId: EARNING_ID, reason: 'ok', actor: 'tok-1' }))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: messages.notHeld,
    });
    expect(await refusal(f.service.void({ earningId: EARNING_ID, reason: '  ', actor: 'tok-1' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'A reason is required',
    });
    expect(await refusal(f.service.void({ earningId: EARNING_ID, reason: 'x'.repeat(501), actor: 'tok-1' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Reason must be at most 500 characters',
    });
    expect(await refusal(f.service.void({ earningId: 'nope', reason: 'ok', actor: 'tok-1' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: messages.invalidEarningId,
    });
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('reads the holds of a page of submissions in one query, ignoring ids that are not uuids', async () => {
    const f = setup();
    f.earnings.holdsOf.mockResolvedValue([held()]);
    const answer = await f.service.holdsOf({ submissionIds: [SUBMISSION_ID, 'junk', SUBMISSION_ID] });
    expect(f.earnings.holdsOf).toHaveBeenCalledWith(reader, [SUBMISSION_ID]);
    expect(answer.holds).toEqual([
      {
        earningId: EARNING_ID,
        submissionId: SUBMISSION_ID,
        userId: CLIPPER_ID,
        amount: '15',
        status: 'held',
        reasons: ['It duplicates a clip you submitted earlier.'],
        heldAt: daysBefore(2).toISOString(),
      },
    ]);
  });
});

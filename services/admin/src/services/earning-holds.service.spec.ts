import { status } from '@grpc/grpc-js';
import type { rewardsV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError, LOGGER } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { REWARDS_CLIENT, type RewardsClient } from '../clients.js';
import { AuditService } from './audit.service.js';
import { EarningHoldsService } from './earning-holds.service.js';

// The holds on earnings of flagged clips (ADR 0050) as admin carries them to rewards: every decision
// audited with its result, the owner's refusal passed on as it is, the list's holds read in one call.

const EARNING_ID = '2c8e5a1f-7b3d-4e9a-8c6f-1d2e3f4a5b66';
const SUBMISSION_ID = '3d9f6b2a-8c4e-4fa1-9d7a-2e3f4a5b6c77';
const ACTOR = 'token-id-1';
const caller = { token: 'v1.x', clientIp: '198.51.100.7' };

const hold = (patch: Partial<rewardsV1.EarningHold> = {}): rewardsV1.EarningHold => ({
  earningId: EARNING_ID,
  submissionId: SUBMISSION_ID,
  userId: 'clipper-1',
  amount: '15',
  status: 'held',
  reasons: ['Its video matches a clip submitted earlier by another clipper.'],
  heldAt: '2026-11-27T10:00:00.000Z',
  ...patch,
});

function setup() {
  const rewards = automock<RewardsClient>('RewardsClient', ['listHolds', 'releaseEarning', 'voidEarning']);
  const { service, mock } = createTestService(EarningHoldsService, { [REWARDS_CLIENT]: rewards, [LOGGER]: pino({ level: 'silent' }) });
  const audit = mock(AuditService);
  audit.record.mockResolvedValue(undefined);
  return { service, rewards, audit };
}

describe('EarningHoldsService (admin)', () => {
  it('releases with the trimmed reason and the token’s id, audited as done', async () => {
    const f = setup();
    const decision = { decision: 'released', reason: 'Their own edit', by: ACTOR, at: '2026-11-28T10:00:00.000Z' };
    f.rewards.releaseEarning.mockResolvedValue(hold({ status: 'pending', decision }));
    const answer = await f.service.decide({ caller, earningId: EARNING_ID, decision: 'release', reason: '  Their own edit ' }, ACTOR);
    expect(f.rewards.releaseEarning).toHaveBeenCalledWith({ earningId: EARNING_ID, reason: 'Their own edit', actor: ACTOR });
    expect(answer).toEqual({
      earningId: EARNING_ID,
      amount: '15',
      status: 'pending',
      reasons: ['Its video matches a clip submitted earlier by another clipper.'],
      heldAt: '2026-11-27T10:00:00.000Z',
      decision,
    });
    expect(f.audit.record).toHaveBeenCalledWith({
      action: 'release-earning',
      target: `earning ${EARNING_ID}`,
      result: 'ok',
      detail: 'reason: Their own edit',
      actor: ACTOR,
      clientIp: caller.clientIp,
    });
  });

  it('passes on the owner’s refusal (not held) and audits it as refused', async () => {
    const f = setup();
    f.rewards.voidEarning.mockRejectedValue(new GrpcCallError(status.FAILED_PRECONDITION, 'This earning is not held', 'voidEarning', true));
    const err = await rejectedWith(
      f.service.decide({ caller, earningId: EARNING_ID, decision: 'void', reason: 'Copy' }, ACTOR),
      DomainError,
    );
    expect([err.code, err.message]).toEqual([status.FAILED_PRECONDITION, 'This earning is not held']);
    expect(f.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'void-earning', result: 'refused', detail: 'This earning is not held', actor: ACTOR }),
    );
  });

  it('refuses an unknown decision before asking rewards', async () => {
    const f = setup();
    const err = await rejectedWith(
      f.service.decide({ caller, earningId: EARNING_ID, decision: 'forgive', reason: 'x' }, ACTOR),
      DomainError,
    );
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'Unknown hold decision: forgive']);
  });

  it('reads a page’s holds in one call, and goes without them when rewards is away', async () => {
    const f = setup();
    f.rewards.listHolds.mockResolvedValueOnce({ holds: [hold()] });
    const holds = await f.service.holdsOf([SUBMISSION_ID, 'other']);
    expect(f.rewards.listHolds).toHaveBeenCalledWith({ submissionIds: [SUBMISSION_ID, 'other'] });
    expect([...holds.keys()]).toEqual([SUBMISSION_ID]);
    f.rewards.listHolds.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'listHolds'));
    expect((await f.service.holdsOf([SUBMISSION_ID])).size).toBe(0);
  });
});

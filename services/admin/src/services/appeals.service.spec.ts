import { status } from '@grpc/grpc-js';
import type { submissionsV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError, LOGGER } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { IDENTITY_CLIENT, SUBMISSIONS_CLIENT, type IdentityClient, type SubmissionsClient } from '../clients.js';
import { AppealsService } from './appeals.service.js';
import { AuditService } from './audit.service.js';

// Clippers' appeals (ADR 0051) as admin carries them to submissions: the list with the clippers' handles,
// every decision audited with its result, the owner's refusal passed on as it is.

const APPEAL_ID = '4e0a7c3b-9d5f-4ab2-8e8b-3f4a5b6c7d88';
const SUBMISSION_ID = '3d9f6b2a-8c4e-4fa1-9d7a-2e3f4a5b6c77';
const ACTOR = 'token-id-1';
const caller = { token: 'v1.x', clientIp: '198.51.100.7' };

const anAppeal = (patch: Partial<submissionsV1.Appeal> = {}): submissionsV1.Appeal => ({
  id: APPEAL_ID,
  submissionId: SUBMISSION_ID,
  userId: 'clipper-1',
  kind: 'rejection',
  text: 'The game is on screen',
  status: 'pending',
  rejectedReason: 'Not a gaming clip',
  holdReasons: [],
  createdAt: '2026-11-29T10:00:00.000Z',
  postUrl: 'https://x.com/ada/status/1',
  submissionName: 'Clutch',
  ...patch,
});

function setup() {
  const submissions = automock<SubmissionsClient>('SubmissionsClient', ['listAppeals', 'decideAppeal']);
  const identity = automock<IdentityClient>('IdentityClient', ['getUsers']);
  const { service, mock } = createTestService(AppealsService, {
    [SUBMISSIONS_CLIENT]: submissions,
    [IDENTITY_CLIENT]: identity,
    [LOGGER]: pino({ level: 'silent' }),
  });
  const audit = mock(AuditService);
  audit.record.mockResolvedValue(undefined);
  return { service, submissions, identity, audit };
}

describe('AppealsService (admin)', () => {
  it('lists the appeals with their clippers’ handles, and without them when identity is away', async () => {
    const f = setup();
    f.submissions.listAppeals.mockResolvedValue({ appeals: [anAppeal()], nextCursor: 'next' });
    f.identity.getUsers.mockResolvedValueOnce({ users: [{ id: 'clipper-1', twitterUsername: 'ada' } as never] });
    expect(await f.service.list({ limit: 20 })).toEqual({
      appeals: [expect.objectContaining({ id: APPEAL_ID, clipperHandle: 'ada' })],
      nextCursor: 'next',
    });
    expect(f.submissions.listAppeals).toHaveBeenCalledWith({ limit: 20, cursor: undefined });
    f.identity.getUsers.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'down', 'getUsers'));
    const page = await f.service.list({});
    expect(page.appeals[0]).not.toHaveProperty('clipperHandle');
  });

  it('carries a decision with the trimmed reason and the token’s id, audited as done', async () => {
    const f = setup();
    f.submissions.decideAppeal.mockResolvedValue(anAppeal({ status: 'overturned', decisionReason: 'Fair', decidedBy: ACTOR }));
    f.identity.getUsers.mockResolvedValue({ users: [] });
    const answer = await f.service.decide({ caller, appealId: APPEAL_ID, outcome: 'overturned', reason: '  Fair ' }, ACTOR);
    expect(f.submissions.decideAppeal).toHaveBeenCalledWith({
      appealId: APPEAL_ID,
      outcome: 'overturned',
      reason: 'Fair',
      decidedBy: ACTOR,
    });
    expect(answer).toMatchObject({ status: 'overturned', decisionReason: 'Fair' });
    expect(f.audit.record).toHaveBeenCalledWith({
      action: 'appeal-overturned',
      target: `appeal ${APPEAL_ID} (submission ${SUBMISSION_ID}, rejection)`,
      result: 'ok',
      detail: 'reason: Fair',
      actor: ACTOR,
      clientIp: caller.clientIp,
    });
  });

  it('passes on the owner’s refusal (decided) and audits it as refused', async () => {
    const f = setup();
    f.submissions.decideAppeal.mockRejectedValue(
      new GrpcCallError(status.FAILED_PRECONDITION, 'This appeal has already been decided', 'decideAppeal', true),
    );
    const err = await rejectedWith(f.service.decide({ caller, appealId: APPEAL_ID, outcome: 'upheld', reason: 'No' }, ACTOR), DomainError);
    expect([err.code, err.message]).toEqual([status.FAILED_PRECONDITION, 'This appeal has already been decided']);
    expect(f.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'appeal-upheld',
        target: `appeal ${APPEAL_ID}`,
        result: 'refused',
        detail: 'This appeal has already been decided',
      }),
    );
  });

  it('refuses an unknown outcome or a missing reason before asking submissions, audited', async () => {
    const f = setup();
    const bad = await rejectedWith(f.service.decide({ caller, appealId: APPEAL_ID, outcome: 'maybe', reason: 'x' }, ACTOR), DomainError);
    expect([bad.code, bad.message]).toEqual([status.INVALID_ARGUMENT, "Outcome must be 'upheld' or 'overturned'"]);
    const blank = await rejectedWith(f.service.decide({ caller, appealId: APPEAL_ID, outcome: 'upheld', reason: ' ' }, ACTOR), DomainError);
    expect(blank.message).toBe('A reason is required');
    expect(f.submissions.decideAppeal).not.toHaveBeenCalled();
    expect(f.audit.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'decide-appeal', result: 'refused' }));
  });
});

import { status } from '@grpc/grpc-js';
import { CONFIG, DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { AT, clockAt, config, runTransactions, submission, SUBMISSION_ID, tx } from '../../test/support/unit-fixtures.js';
import type { ModerationCommand } from '../domain/moderation.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { ModerationService } from './moderation.service.js';

// Each moderation command on a locked row: the state it leaves and the one event it writes.

function setup() {
  const { service, mock } = createTestService(ModerationService, { [CONFIG]: config });
  const repo = mock(SubmissionRepository);
  const transactions = runTransactions(mock(TransactionRunner));
  const outbox = mock(Outbox);
  repo.save.mockResolvedValue(undefined);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, transactions, repo, outbox };
}

describe('ModerationService', () => {
  clockAt();
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  const cases: Array<[ModerationCommand, Parameters<typeof submission>[0], object, string, object]> = [
    // Approving makes the post's metrics due at once (ADR 0029).
    ['approve', {}, { status: 'approved', addedToFeed: false, approvedAt: AT, metricsDueAt: AT }, 'submission.approved', {}],
    ['approve-and-add-to-feed', {}, { status: 'approved', addedToFeed: true, approvedAt: AT, metricsDueAt: AT }, 'submission.approved', {}],
    [
      'reject',
      {},
      { status: 'rejected', addedToFeed: false, rejectedReason: 'Not a clip', approvedAt: null, metricsDueAt: null },
      'submission.rejected',
      {},
    ],
    [
      'add-to-feed',
      { status: 'approved', approvedAt: new Date('2026-11-01T00:00:00.000Z') },
      { addedToFeed: true, approvedAt: new Date('2026-11-01T00:00:00.000Z') },
      'submission.feed-changed',
      { addedToFeed: true },
    ],
    [
      'remove-from-feed',
      { status: 'approved', addedToFeed: true },
      { status: 'approved', addedToFeed: false },
      'submission.feed-changed',
      { addedToFeed: false },
    ],
  ];

  it.each(cases)('%s: saves the new state and writes its event in the same transaction', async (command, before, after, type, extra) => {
    const row = submission(before);
    f.repo.lockById.mockResolvedValue(row);
    const answer = await f.service.moderate(SUBMISSION_ID, command, '  Not a clip ');
    expect(row).toMatchObject({ ...after, updatedAt: AT });
    expect(f.repo.save).toHaveBeenCalledWith(tx, row);
    expect(f.outbox.append.mock.calls).toEqual([
      [
        tx,
        type,
        { submission: expect.objectContaining({ id: SUBMISSION_ID, status: row.status, addedToFeed: row.addedToFeed }), ...extra },
      ],
    ]);
    expect(answer).toMatchObject({ id: SUBMISSION_ID, status: row.status });
  });

  it('refuses a command the state forbids, naming the state, and writes nothing', async () => {
    f.repo.lockById.mockResolvedValue(submission({ status: 'rejected' }));
    const err = await rejectedWith(f.service.moderate(SUBMISSION_ID, 'approve'), DomainError);
    expect([err.code, err.message]).toEqual([
      status.FAILED_PRECONDITION,
      'Only a pending submission can be approved (this one is rejected)',
    ]);
    f.repo.lockById.mockResolvedValue(submission({ status: 'approved', addedToFeed: true }));
    expect((await rejectedWith(f.service.moderate(SUBMISSION_ID, 'add-to-feed'), DomainError)).message).toBe(
      'This submission is already in the feed',
    );
    expect(f.repo.save).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('stores no reason for a blank one, refuses one too long before any read, and answers 404 for no submission', async () => {
    const row = submission();
    f.repo.lockById.mockResolvedValueOnce(row);
    await f.service.moderate(SUBMISSION_ID, 'reject', '   ');
    expect(row.rejectedReason).toBeNull();

    f.repo.lockById.mockClear();
    expect((await rejectedWith(f.service.moderate(SUBMISSION_ID, 'reject', 'x'.repeat(501)), DomainError)).code).toBe(
      status.INVALID_ARGUMENT,
    );
    expect(f.repo.lockById).not.toHaveBeenCalled();
    f.repo.lockById.mockResolvedValueOnce(undefined);
    expect((await rejectedWith(f.service.moderate(SUBMISSION_ID, 'approve'), DomainError)).code).toBe(status.NOT_FOUND);
  });
});

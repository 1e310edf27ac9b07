import { status } from '@grpc/grpc-js';
import { CLIPPER_APPLICATION_MESSAGES } from '@clipit/field-rules';
import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, EARLIER, refusal, tx, uniqueViolationOf } from '../../test/support/unit-fixtures.js';
import { toApplicationSnapshot } from '../domain/application.mapper.js';
import type { ClipperApplicationEntity } from '../entities/clipper-application.entity.js';
import { ApplicationRepository } from '../repositories/application.repository.js';
import { ApplicationsService } from './applications.service.js';

// Clipper job applications with the repository and the outbox auto-mocked: the shared rules' words, the
// pending row and its application.submitted event together, and the unique index's answer.

function setup() {
  const { service, mock } = createTestService(ApplicationsService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, transactions, repo: mock(ApplicationRepository), outbox };
}

const apply = (patch: Record<string, string | undefined> = {}) => ({
  fullName: ' Casey Clipper ',
  email: ' Casey@Example.com ',
  experience: 'Two years cutting stream highlights for crypto channels.',
  whyJoin: 'I already clip every day and want to be paid per approved clip.',
  availabilityHours: '25',
  ...patch,
});

const stored = (patch: Partial<ClipperApplicationEntity> = {}): ClipperApplicationEntity => ({
  id: 'a0000000-0000-4000-8000-000000000001',
  fullName: 'Casey Clipper',
  email: 'casey@example.com',
  socialMediaHandles: null,
  availabilityHours: 25,
  experience: 'Two years cutting stream highlights for crypto channels.',
  whyJoin: 'I already clip every day and want to be paid per approved clip.',
  portfolioLinks: null,
  status: 'pending',
  notes: null,
  reviewedBy: null,
  reviewedAt: null,
  createdAt: EARLIER,
  updatedAt: EARLIER,
  ...patch,
});

describe('ApplicationsService.submit', () => {
  it('stores the checked application as pending with application.submitted in the same transaction', async () => {
    const f = setup();
    f.repo.insert.mockResolvedValue(undefined);
    const answer = await f.service.submit(apply(), AT);

    const [insertTx, row] = f.repo.insert.mock.calls[0]!;
    expect(insertTx).toBe(tx);
    expect(row).toMatchObject({
      fullName: 'Casey Clipper',
      email: 'casey@example.com',
      availabilityHours: 25,
      socialMediaHandles: null,
      status: 'pending',
      notes: null,
      createdAt: AT,
      updatedAt: AT,
    });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'application.submitted', { application: toApplicationSnapshot(row) });
    expect(answer).toMatchObject({ id: row.id, email: 'casey@example.com', status: 'pending', createdAt: AT.toISOString() });
  });

  it('refuses with the rule’s first message and writes nothing', async () => {
    const f = setup();
    expect(await refusal(f.service.submit(apply({ experience: 'Some.' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: CLIPPER_APPLICATION_MESSAGES.experienceShort,
    });
    expect(await refusal(f.service.submit(apply({ availabilityHours: '200' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: CLIPPER_APPLICATION_MESSAGES.availabilityHigh,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });

  it('answers ALREADY_EXISTS when the one-pending-per-email index refuses the row, and passes other failures on', async () => {
    const f = setup();
    f.transactions.run.mockRejectedValueOnce(uniqueViolationOf('clipper_applications_pending_email_idx'));
    expect(await refusal(f.service.submit(apply()))).toEqual({
      code: status.ALREADY_EXISTS,
      message: CLIPPER_APPLICATION_MESSAGES.alreadyPending,
    });
    const other = uniqueViolationOf('clipper_applications_pkey');
    f.transactions.run.mockRejectedValueOnce(other);
    await expect(f.service.submit(apply())).rejects.toBe(other);
  });
});

describe('ApplicationsService.list', () => {
  it('pages newest first with the total, and a cursor only when there is more', async () => {
    const f = setup();
    const rows = [stored(), stored({ id: 'a0000000-0000-4000-8000-000000000000' })];
    f.repo.listPage.mockResolvedValue(rows);
    f.repo.count.mockResolvedValue(2);
    const first = await f.service.list({ limit: 1 });
    expect(f.repo.listPage).toHaveBeenCalledWith(2, undefined);
    expect(first.applications.map((a) => a.id)).toEqual([rows[0]!.id]);
    expect(first.total).toBe(2);

    f.repo.listPage.mockResolvedValue([rows[1]!]);
    const second = await f.service.list({ limit: 1, cursor: first.nextCursor! });
    expect(f.repo.listPage).toHaveBeenLastCalledWith(2, { createdAt: EARLIER, id: rows[0]!.id });
    expect(second.nextCursor).toBeUndefined();
  });

  it('refuses a cursor it did not write', async () => {
    const f = setup();
    expect(await refusal(f.service.list({ cursor: 'not-a-cursor' }))).toEqual({ code: status.INVALID_ARGUMENT, message: 'Invalid cursor' });
  });
});

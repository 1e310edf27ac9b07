import { CONFIG, LOGGER, TransactionRunner } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { AT, config, runTransactions, silentLogger, tx } from '../../test/support/unit-fixtures.js';
import type { SubmissionsConfig } from '../config.js';
import type { DuePost } from '../domain/metrics-schedule.js';
import { METRICS_QUEUE, type MetricsQueuePort } from '../ports.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { MetricsSchedulerService } from './metrics-scheduler.service.js';

// A scheduler round: batch by batch, each claimed, queued and marked in one transaction, until what is
// due runs out or the round's batches are spent; a refused job leaves its posts due.

const due = (n: number, from = 0): DuePost[] =>
  Array.from({ length: n }, (_, i) => ({
    submissionId: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
    externalId: String(1000 + from + i),
    dueAt: AT,
  }));

function setup(maxBatches = 5) {
  const queue = { enqueue: jest.fn<MetricsQueuePort['enqueue']>(), close: jest.fn<MetricsQueuePort['close']>() };
  const { service, mock } = createTestService(MetricsSchedulerService, {
    [CONFIG]: { ...config, METRICS_QUEUED_STALE_MINUTES: 60, METRICS_SCHEDULER_MAX_BATCHES: maxBatches } as SubmissionsConfig,
    [LOGGER]: silentLogger,
    [METRICS_QUEUE]: queue,
  });
  const transactions = runTransactions(mock(TransactionRunner));
  const metrics = mock(MetricsRepository);
  metrics.markQueued.mockResolvedValue(undefined);
  queue.enqueue.mockResolvedValue(undefined);
  return { service, transactions, metrics, queue };
}

describe('MetricsSchedulerService', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('queues full batches until a short one, each marked queued and due again after the stale timeout', async () => {
    f.metrics.lockDue.mockResolvedValueOnce(due(3, 0)).mockResolvedValueOnce(due(3, 3)).mockResolvedValueOnce(due(1, 6));
    expect(await f.service.queueDue(AT, 3)).toBe(7);
    expect(f.metrics.lockDue.mock.calls).toEqual([
      [tx, AT, 3],
      [tx, AT, 3],
      [tx, AT, 3],
    ]);
    expect(f.queue.enqueue.mock.calls.map(([job]) => job.posts.map((p) => p.externalId))).toEqual([
      ['1000', '1001', '1002'],
      ['1003', '1004', '1005'],
      ['1006'],
    ]);
    const retryAt = new Date(AT.getTime() + 3600_000);
    expect(f.metrics.markQueued.mock.calls).toEqual([
      [tx, due(3, 0).map((p) => p.submissionId), AT, retryAt],
      [tx, due(3, 3).map((p) => p.submissionId), AT, retryAt],
      [tx, due(1, 6).map((p) => p.submissionId), AT, retryAt],
    ]);
    const ids = f.queue.enqueue.mock.calls.map(([job]) => job.batchId);
    expect(new Set(ids).size).toBe(3);
  });

  it('stops at METRICS_SCHEDULER_MAX_BATCHES, and queues nothing when nothing is due', async () => {
    f = setup(2);
    f.metrics.lockDue.mockResolvedValue(due(2));
    expect(await f.service.queueDue(AT, 2)).toBe(4);
    expect(f.queue.enqueue).toHaveBeenCalledTimes(2);
    f.metrics.lockDue.mockReset();
    f.queue.enqueue.mockClear();
    f.metrics.lockDue.mockResolvedValue([]);
    expect(await f.service.queueDue(AT, 2)).toBe(0);
    expect(f.queue.enqueue).not.toHaveBeenCalled();
  });

  it('marks nothing when the queue refuses the batch: the transaction fails and the posts stay due', async () => {
    f.metrics.lockDue.mockResolvedValue(due(2));
    f.queue.enqueue.mockRejectedValue(new Error('Connection is closed.'));
    await expect(f.service.queueDue(AT, 100)).rejects.toThrow('Connection is closed.');
    expect(f.metrics.markQueued).not.toHaveBeenCalled();
  });
});

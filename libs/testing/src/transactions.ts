import type { TransactionRunner } from '@clipit/service-kit';
import type { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';

/**
 * A strict mock of the kit's `TransactionRunner` made to run each `work` at once with `tx`, the way the
 * real one runs it inside a transaction: the unit spec then sees which repository calls and outbox
 * appends got that `tx`. Commit and rollback are the integration tests' (libs/service-kit). `nested`
 * stays strict until a spec gives it a behaviour.
 */
export function runTransactionsWith(runner: jest.Mocked<TransactionRunner>, tx: EntityManager): jest.Mocked<TransactionRunner> {
  runner.run.mockImplementation((work) => work(tx));
  return runner;
}

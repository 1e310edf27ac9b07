import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/** What runs inside a transaction: every write, lock and `Outbox.append` goes through `tx`. */
export type TransactionWork<T> = (tx: EntityManager) => Promise<T>;

// Marks the async context of a transaction's work while that transaction is open, so a second one
// opened from inside it is caught (see runTransaction). `open` turns false when it ends: work the
// transaction started and left running (a timer, a kicked-off job) may open its own afterwards.
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * Runs `work` in a new transaction on a connection of its own: committed when `work` resolves, rolled
 * back when it throws (the error is rethrown as it is). The outbox's guarantee rests on this: an event
 * appended with `tx` exists exactly when the change it reports commits (ADR 0003, 0019).
 *
 * Refused inside another transaction's work: that second transaction would commit on its own (its
 * events could outlive a rolled-back caller) and would wait for locks its caller holds, forever. Pass
 * the caller's `tx` on instead (ADR 0016), or use `TransactionRunner.nested` for a part that may fail
 * alone.
 */
export async function runTransaction<T>(dataSource: DataSource, work: TransactionWork<T>): Promise<T> {
  if (openTransaction.getStore()?.open) {
    throw new Error('a transaction was opened inside another one: pass the open transaction on (or nest it with a savepoint)');
  }
  const scope = { open: true };
  try {
    return await openTransaction.run(scope, () => dataSource.transaction(work));
  } finally {
    scope.open = false;
  }
}

/**
 * The one transaction runner of a service (ADR 0033): the kit's start-up provides it next to
 * `DataSource` and `Outbox`, application services and jobs inject it, and unit specs give it a fake that
 * hands `work` a stand-in manager. The kit's own consumer (inbox row and handler) and relay use the same
 * `runTransaction`.
 */
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: TransactionWork<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }

  /**
   * Runs `work` inside the caller's open transaction, in a savepoint: when `work` throws only its own
   * writes are undone (and the error rethrown), so the caller may go on; when it resolves its writes
   * commit or roll back with the caller's.
   */
  nested<T>(tx: EntityManager, work: TransactionWork<T>): Promise<T> {
    if (!tx.queryRunner?.isTransactionActive) {
      return Promise.reject(new Error('TransactionRunner.nested needs the open transaction of its caller'));
    }
    return tx.transaction(work);
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { currentReadYourWrites } from '../context/correlation.js';
import { addEvents, type WrittenEvent } from '../context/read-your-writes.js';

/** What runs inside a transaction: every write, lock and `Outbox.append` goes through `tx`. */
export type TransactionWork<T> = (tx: EntityManager) => Promise<T>;

// Marks the async context of a transaction's work while that transaction is open, so a second one
// opened from inside it is caught (see runTransaction). `open` turns false when it ends: work the
// transaction started and left running (a timer, a kicked-off job) may open its own afterwards.
// `events` are those `Outbox.append` wrote in it: once it commits they are the request's to report
// (read-your-writes, ADR 0043).
const openTransaction = new AsyncLocalStorage<{ open: boolean; events: WrittenEvent[] }>();

/** Notes an event appended to the outbox in the open transaction (reported once it commits). */
export function noteAppendedEvent(event: WrittenEvent): void {
  const scope = openTransaction.getStore();
  if (scope?.open) scope.events.push(event);
}

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
  const scope = { open: true, events: [] as WrittenEvent[] };
  try {
    const result = await openTransaction.run(scope, () => dataSource.transaction(work));
    // Committed: the request that caused it reports its events to its caller, whose next reads wait for them.
    const rw = currentReadYourWrites();
    if (rw && scope.events.length > 0) addEvents(rw.written, scope.events);
    return result;
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
    // Events appended in a savepoint that is rolled back never commit: they are not reported.
    const scope = openTransaction.getStore();
    const mark = scope?.events.length ?? 0;
    return tx.transaction(work).catch((err: unknown) => {
      if (scope) scope.events.length = Math.min(scope.events.length, mark);
      throw err;
    });
  }
}

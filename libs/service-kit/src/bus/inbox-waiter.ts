import type { DataSource } from 'typeorm';
import type { WrittenEvent } from '../context/read-your-writes.js';

/** The Nest token of a service's InboxWaiter (null for a service that consumes no events). */
export const INBOX_WAITER = Symbol('INBOX_WAITER');

export interface InboxWaiterOptions {
  dataSource: Pick<DataSource, 'query'>;
  /** The durable consumer's name: the inbox rows' `consumer`. */
  consumer: string;
  /** How often the inbox is read again while waiting, for events another replica applies (ms). */
  pollMs?: number;
}

/**
 * Waits until a service's event consumer has applied given events (read-your-writes, ADR 0043). An event is
 * applied once its inbox row committed, by whichever replica took it: the inbox is asked, then asked again
 * every `pollMs` and at once whenever this replica's own consumer applies one of the awaited events.
 *
 * Only events of the types this service consumes are awaited (`relevant`): another's never reach its inbox.
 */
export class InboxWaiter {
  private subscriptions: ReadonlySet<string> = new Set();
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly pollMs: number;

  constructor(private readonly opts: InboxWaiterOptions) {
    this.pollMs = opts.pollMs ?? 10;
  }

  /** The event types the consumer applies (known once its handler table is). */
  consumes(types: Iterable<string>): void {
    this.subscriptions = new Set(types);
  }

  /** The ids among `events` this service's consumer applies. */
  relevant(events: readonly WrittenEvent[]): string[] {
    return events.filter((e) => this.subscriptions.has(e.type)).map((e) => e.id);
  }

  /** This replica's consumer committed the event (or found it applied already): its waiters look again. */
  applied(eventId: string): void {
    const wakes = this.waiting.get(eventId);
    if (!wakes) return;
    this.waiting.delete(eventId);
    for (const wake of wakes) wake();
  }

  /** Resolves true once every event of `ids` is applied, false when `until` (epoch ms) came first. */
  async waitFor(ids: readonly string[], until: number): Promise<boolean> {
    let missing = await this.missing(ids);
    while (missing.length > 0) {
      const left = until - Date.now();
      if (left <= 0) return false;
      await this.nap(missing, Math.min(left, this.pollMs));
      missing = await this.missing(missing);
    }
    return true;
  }

  private async missing(ids: readonly string[]): Promise<string[]> {
    const rows = (await this.opts.dataSource.query(
      'SELECT event_id::text AS id FROM inbox WHERE consumer = $1 AND event_id = ANY($2::uuid[])',
      [this.opts.consumer, ids],
    )) as Array<{ id: string }>;
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  /** Waits `ms`, or less when one of `ids` is applied here. */
  private nap(ids: readonly string[], ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        for (const id of ids) {
          const set = this.waiting.get(id);
          set?.delete(wake);
          if (set?.size === 0) this.waiting.delete(id);
        }
        resolve();
      };
      const timer = setTimeout(wake, ms);
      for (const id of ids) {
        let set = this.waiting.get(id);
        if (!set) this.waiting.set(id, (set = new Set()));
        set.add(wake);
      }
    });
  }
}

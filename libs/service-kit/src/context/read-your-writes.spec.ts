import { describe, expect, it } from '@jest/globals';
import { InboxWaiter } from '../bus/inbox-waiter.js';
import { Outbox } from '../bus/outbox.js';
import { runTransaction, TransactionRunner } from '../database/transactions.js';
import { runWithRequestContext } from './correlation.js';
import { addEvents, formatEvents, parseEvents, readYourWrites } from './read-your-writes.js';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the events a write names', () => {
  it('travel as id:type pairs and come back the same', () => {
    const events = [
      { id: ID(1), type: 'social.liked' },
      { id: ID(2), type: 'user.updated' },
    ];
    expect(formatEvents(events)).toBe(`${ID(1)}:social.liked,${ID(2)}:user.updated`);
    expect(parseEvents(formatEvents(events))).toEqual(events);
    // A gateway's entry carries its time as a third part, which the services ignore.
    expect(parseEvents(`${ID(3)}:social.followed:1800000000`)).toEqual([{ id: ID(3), type: 'social.followed' }]);
  });

  it('drops what is not an event id and a known type, doubles, and all but the newest eight', () => {
    expect(parseEvents(`nope:social.liked,${ID(1)}:no.such,${ID(2)},${ID(3)}:social.liked,${ID(3)}:social.liked`)).toEqual([
      { id: ID(3), type: 'social.liked' },
    ]);
    const many = Array.from({ length: 12 }, (_, i) => `${ID(i)}:social.liked`).join(',');
    expect(parseEvents(many).map((e) => e.id)).toEqual(Array.from({ length: 8 }, (_, i) => ID(4 + i)));
    expect(parseEvents(undefined)).toEqual([]);
    expect(parseEvents('x'.repeat(5000))).toEqual([]);
    expect(parseEvents([`${ID(1)}:social.liked`])).toEqual([{ id: ID(1), type: 'social.liked' }]);
  });

  it('are added to a list once each', () => {
    const list = [{ id: ID(1), type: 'social.liked' }];
    addEvents(list, [
      { id: ID(1), type: 'social.liked' },
      { id: ID(2), type: 'social.unliked' },
    ]);
    expect(list.map((e) => e.id)).toEqual([ID(1), ID(2)]);
  });
});

describe('InboxWaiter', () => {
  /** An inbox whose rows the test adds; counts the queries. */
  const inbox = () => {
    const rows = new Set<string>();
    const asked = { count: 0 };
    const dataSource = {
      query: async (_sql: string, [, ids]: [string, string[]]) => {
        asked.count += 1;
        return ids.filter((id) => rows.has(id)).map((id) => ({ id }));
      },
    };
    return { rows, asked, waiter: new InboxWaiter({ dataSource: dataSource as never, consumer: 'feed', pollMs: 1000 }) };
  };

  it('waits only for the types its consumer applies', () => {
    const { waiter } = inbox();
    waiter.consumes(['social.liked']);
    expect(
      waiter.relevant([
        { id: ID(1), type: 'social.liked' },
        { id: ID(2), type: 'user.updated' },
      ]),
    ).toEqual([ID(1)]);
  });

  it('answers at once for applied events, and as soon as this replica applies a missing one', async () => {
    const { rows, waiter, asked } = inbox();
    rows.add(ID(1));
    expect(await waiter.waitFor([ID(1)], Date.now() + 250)).toBe(true);
    const started = Date.now();
    const waiting = waiter.waitFor([ID(1), ID(2)], Date.now() + 5000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows.add(ID(2));
    waiter.applied(ID(2));
    expect(await waiting).toBe(true);
    // Woken by applied(), not by the 1 s poll.
    expect(Date.now() - started).toBeLessThan(900);
    expect(asked.count).toBe(3);
  });

  it('gives up at its bound, and sees an event another replica applied at its next poll', async () => {
    const { rows, waiter } = inbox();
    expect(await waiter.waitFor([ID(5)], Date.now() + 30)).toBe(false);
    const quick = new InboxWaiter({
      dataSource: {
        query: async (_: string, [, ids]: [string, string[]]) => ids.filter((id) => rows.has(id)).map((id) => ({ id })),
      } as never,
      consumer: 'feed',
      pollMs: 5,
    });
    const waiting = quick.waitFor([ID(6)], Date.now() + 2000);
    setTimeout(() => rows.add(ID(6)), 20);
    expect(await waiting).toBe(true);
  });
});

describe('a request reports the events its transactions committed', () => {
  const manager = {
    queryRunner: { isTransactionActive: true },
    query: async () => [],
    transaction: async <T>(work: (tx: unknown) => Promise<T>) => work(manager),
  };
  const dataSource = { transaction: async <T>(work: (tx: unknown) => Promise<T>) => work(manager) } as never;
  const outbox = new Outbox('test');
  const data = { userId: ID(9), clipId: ID(8), clipOwnerId: ID(7), likeCount: 1, at: new Date(0).toISOString() };

  it('once committed; none of a transaction rolled back or a savepoint undone', async () => {
    const rw = readYourWrites([], Date.now());
    await runWithRequestContext({ readYourWrites: rw }, async () => {
      const committed = await runTransaction(dataSource, (tx) => outbox.append(tx as never, 'social.liked', data));
      await expect(
        runTransaction(dataSource, async (tx) => {
          await outbox.append(tx as never, 'social.unliked', data);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const kept = await runTransaction(dataSource, async (tx) => {
        await new TransactionRunner(dataSource)
          .nested(tx as never, async (inner) => {
            await outbox.append(inner as never, 'social.unliked', data);
            throw new Error('savepoint undone');
          })
          .catch(() => undefined);
        return outbox.append(tx as never, 'social.liked', data);
      });
      expect(rw.written).toEqual([
        { id: committed.id, type: 'social.liked' },
        { id: kept.id, type: 'social.liked' },
      ]);
    });
  });
});

import type { RewardsPayoutPaidV1 } from '@clipit/contracts';
import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { HOLD_RELEASE_JOB, PAYOUT_JOB, RECOMPUTE_JOB, REWARDS_QUEUE } from '../../src/jobs/rewards-jobs.js';
import { PAYOUT_DRIVER, type PayoutDriver, type Transfer } from '../../src/payouts/payout-driver.js';
import { PayoutRepository } from '../../src/repositories/payout.repository.js';
import { PeopleRepository } from '../../src/repositories/people.repository.js';
import { PayoutService, SKIP_NO_WALLET } from '../../src/services/payout.service.js';
import { startRewards, type RewardsHarness } from '../support/rewards-harness.js';

// The weekly payout run against the real Postgres, NATS and Redis, with the ledger driver: each earning
// paid exactly once however often the run repeats, dies between two wallets, or dies after a transfer
// was made and before it was recorded as paid; a clipper without a wallet skipped with the reason.

let h: RewardsHarness;
beforeAll(async () => {
  h = await startRewards();
});
afterAll(async () => {
  await h?.stop();
});

const WEEK = 7 * 24 * 60 * 60 * 1000;
/** A run a week and a day from now: every earning made so far is before its period's end. */
const later = () => new Date(Date.now() + WEEK + 24 * 60 * 60 * 1000);
let walletSeq = 0;
const wallet = () => `Wa11et${String(++walletSeq).padStart(3, '1')}${'1'.repeat(32)}`.replace(/0/g, '1').slice(0, 44);

async function clipperWithEarnings(clips: number, withWallet = true) {
  const clipper = await h.newUser('clipper', withWallet ? { walletAddress: wallet() } : {});
  for (let i = 0; i < clips; i += 1) await h.submission('submission.approved', { userId: clipper.id });
  return clipper;
}

/** The ledger driver of the running service, wrapped to count sends and to die where a test says. */
function faultyDriver(failOn: (t: Transfer) => 'before-send' | 'after-send' | undefined) {
  const real = h.app.get<PayoutDriver>(PAYOUT_DRIVER);
  const sent: Transfer[] = [];
  const driver: PayoutDriver = {
    name: real.name,
    acceptsAddress: (a) => real.acceptsAddress(a),
    findByReference: (r, w) => real.findByReference(r, w),
    async send(t) {
      const fault = failOn(t);
      if (fault === 'before-send') throw new Error('the chain is away');
      const signature = await real.send(t);
      sent.push(t);
      if (fault === 'after-send') throw new Error('died after sending');
      return signature;
    },
  };
  return {
    driver,
    sent,
    service: new PayoutService(
      h.app.get(PayoutRepository),
      h.app.get(PeopleRepository),
      h.app.get(Outbox),
      driver,
      h.app.get(TransactionRunner),
    ),
  };
}

const earningsOf = async (userId: string) =>
  (
    await h.db.query<{ status: string; tx_hash: string | null; payout_id: string | null }>(
      'SELECT status, tx_hash, payout_id FROM earnings WHERE user_id = $1',
      [userId],
    )
  ).rows;

describe('the weekly payout', () => {
  it('pays each clipper’s pending earnings in one payout, skips a clipper with no wallet with the reason, and pays nothing twice when run again', async () => {
    const a = await clipperWithEarnings(2);
    const b = await clipperWithEarnings(1);
    const noWallet = await clipperWithEarnings(1, false);
    const { service, sent } = faultyDriver(() => undefined);

    const first = await service.run(later());
    expect(first).toMatchObject({
      ran: true,
      paid: 2,
      recovered: 0,
      amount: '30',
      skipped: [{ userId: noWallet.id, reason: SKIP_NO_WALLET }],
    });
    expect(sent.map((t) => [t.walletAddress, t.amount])).toEqual(
      expect.arrayContaining([
        [expect.any(String), 20_000_000n],
        [expect.any(String), 10_000_000n],
      ]),
    );
    for (const clipper of [a, b]) {
      const rows = await earningsOf(clipper.id);
      expect(rows.every((r) => r.status === 'paid' && r.tx_hash && r.payout_id)).toBe(true);
    }
    expect((await earningsOf(noWallet.id)).map((r) => r.status)).toEqual(['pending']);
    expect((await h.db.query('SELECT reason, amount::text FROM payout_skips WHERE user_id = $1', [noWallet.id])).rows).toEqual([
      { reason: SKIP_NO_WALLET, amount: '10.000000' },
    ]);

    const again = await service.run(later());
    expect(again).toMatchObject({ ran: true, paid: 0, amount: '0' });
    expect(sent).toHaveLength(2);

    const ledger = await h.client.listPayouts({ limit: 10 });
    expect(ledger.payouts.map((p) => p.amount).sort()).toEqual(['10', '20']);
    expect(ledger.payouts[0]).toMatchObject({
      driver: 'ledger',
      txHash: expect.any(String),
      walletAddress: expect.any(String),
      earningsCount: expect.any(Number),
    });
    const mine = await h.client.listPayouts({ limit: 10, userId: a.id });
    expect(mine.payouts).toHaveLength(1);
    expect((await h.client.getDashboard({ userId: a.id })).earningsSummary).toEqual({ paid: '20', pending: '0', total: '20', held: '0' });

    const paidEvents = await waitFor(() => {
      const seen = h.events.filter((e) => e.envelope.type === 'rewards.payout-paid').map((e) => e.envelope.data as RewardsPayoutPaidV1);
      return seen.length >= 2 ? seen : undefined;
    });
    expect(paidEvents.map((e) => e.userId).sort()).toEqual([a.id, b.id].sort());
  });

  it('finishes a run that died between two wallets: the first is not paid again, the second is paid once', async () => {
    // The run takes clippers in id order: `first` is the one it reaches first.
    const [first, second] = [await clipperWithEarnings(1), await clipperWithEarnings(1)].sort((x, y) =>
      x.id < y.id ? -1 : 1,
    ) as unknown as [{ id: string }, { id: string }];
    const secondWallet = (await h.db.query<{ wallet_address: string }>('SELECT wallet_address FROM people WHERE id = $1', [second.id]))
      .rows[0]!.wallet_address;
    const dying = faultyDriver((t) => (t.walletAddress === secondWallet ? 'before-send' : undefined));
    await expect(dying.service.run(later())).rejects.toThrow('the chain is away');
    expect((await earningsOf(first.id)).map((r) => r.status)).toEqual(['paid']);
    expect((await earningsOf(second.id)).map((r) => [r.status, r.payout_id !== null])).toEqual([['pending', true]]);

    const healthy = faultyDriver(() => undefined);
    const result = await healthy.service.run(later());
    expect(result).toMatchObject({ paid: 1, recovered: 0 });
    expect(healthy.sent.map((t) => t.walletAddress)).toEqual([secondWallet]);
    expect((await earningsOf(second.id)).map((r) => r.status)).toEqual(['paid']);
    expect(await h.count('SELECT count(*) FROM payouts WHERE user_id = ANY($1::uuid[])', [[first.id, second.id]])).toBe(2);
  });

  it('finishes a run that died after the transfer and before recording it: found by its reference, never sent again', async () => {
    const clipper = await clipperWithEarnings(3);
    const dying = faultyDriver(() => 'after-send');
    await expect(dying.service.run(later())).rejects.toThrow('died after sending');
    expect((await earningsOf(clipper.id)).map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);

    const healthy = faultyDriver(() => undefined);
    expect(await healthy.service.run(later())).toMatchObject({ paid: 1, recovered: 1, amount: '30' });
    expect(healthy.sent).toHaveLength(0);
    const payout = (
      await h.db.query<{ reference: string; tx_hash: string }>(
        "SELECT reference, tx_hash FROM payouts WHERE user_id = $1 AND status = 'paid'",
        [clipper.id],
      )
    ).rows[0]!;
    expect(await h.count('SELECT count(*) FROM ledger_transfers WHERE reference = $1', [payout.reference])).toBe(1);
    expect((await earningsOf(clipper.id)).every((r) => r.tx_hash === payout.tx_hash)).toBe(true);
  });

  it('runs one at a time: a second run started meanwhile does nothing', async () => {
    await clipperWithEarnings(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sending!: () => void;
    const inSend = new Promise<void>((resolve) => (sending = resolve));
    const real = h.app.get<PayoutDriver>(PAYOUT_DRIVER);
    const slow: PayoutDriver = {
      name: real.name,
      acceptsAddress: (a) => real.acceptsAddress(a),
      findByReference: (r, w) => real.findByReference(r, w),
      async send(t) {
        sending();
        await gate;
        return real.send(t);
      },
    };
    const service = new PayoutService(
      h.app.get(PayoutRepository),
      h.app.get(PeopleRepository),
      h.app.get(Outbox),
      slow,
      h.app.get(TransactionRunner),
    );
    const one = service.run(later());
    await inSend;
    // The first run is in the middle of a transfer.
    expect(await service.run(later())).toMatchObject({ ran: false, paid: 0 });
    release();
    expect(await one).toMatchObject({ ran: true, paid: 1 });
  });

  it('is scheduled in UTC on BullMQ, Fridays at noon by default, beside the daily recompute and the quarter-hourly hold release, and a queued run pays', async () => {
    const prefix = `${h.app.config.REDIS_KEY_PREFIX}bull`;
    const queue = new Queue(REWARDS_QUEUE, { connection: { url: h.app.config.REDIS_URL }, prefix });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, s.pattern, s.tz]).sort()).toEqual([
        [RECOMPUTE_JOB, '30 0 * * *', 'UTC'],
        [HOLD_RELEASE_JOB, '*/15 * * * *', 'UTC'],
        [PAYOUT_JOB, '0 12 * * 5', 'UTC'],
      ]);
      // Earnings made now fall in next Friday's period: a run now pays what is older. Make one older.
      const clipper = await clipperWithEarnings(1);
      await h.db.query("UPDATE earnings SET created_at = created_at - interval '8 days' WHERE user_id = $1", [clipper.id]);
      await queue.add(PAYOUT_JOB, {});
      await waitFor(async () => ((await earningsOf(clipper.id))[0]!.status === 'paid' ? true : undefined), 20_000, 'queued payout run');
    } finally {
      await queue.close();
    }
  });
});

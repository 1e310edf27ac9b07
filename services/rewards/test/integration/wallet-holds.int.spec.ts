import type { RewardsPayoutPaidV1, UserSnapshot } from '@clipit/contracts';
import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { releaseHolds, runPayouts } from '../../src/app.js';
import { HOLD_RELEASE_JOB, REWARDS_QUEUE } from '../../src/jobs/rewards-jobs.js';
import { PAYOUT_DRIVER, type PayoutDriver, type Transfer } from '../../src/payouts/payout-driver.js';
import { PayoutRepository } from '../../src/repositories/payout.repository.js';
import { PeopleRepository } from '../../src/repositories/people.repository.js';
import { PayoutService, SKIP_NO_WALLET, SKIP_WALLET_HELD } from '../../src/services/payout.service.js';
import { startRewards, type RewardsHarness } from '../support/rewards-harness.js';

// ADR 0032 against the real Postgres, NATS and Redis, with the ledger driver: earnings due to a wallet
// replaced less than 72 hours before a payout run are held (a skip with its end, the earnings pending, no
// payout in the public ledger, the hold on the clipper's dashboard), then paid once by the hold release
// when the 72 hours are over; a second change during the hold renews it. Identity's `walletChangedAt`
// reaches rewards in the user snapshot; an older identity's event without it erases nothing.

let h: RewardsHarness;
beforeAll(async () => {
  h = await startRewards();
});
afterAll(async () => {
  await h?.stop();
});

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
let walletSeq = 0;
/** A distinct wallet address per call. */
const wallet = () => {
  walletSeq += 1;
  return `Ho1d${BASE58[walletSeq % 58]}${BASE58[Math.floor(walletSeq / 58) % 58]}${'1'.repeat(38)}`;
};
const hoursBefore = (at: Date, hours: number) => new Date(at.getTime() - hours * HOUR);

/**
 * A clipper with one approved clip (10 $CLIP) whose wallet was last replaced at `walletChangedAt`; the
 * earning is made 8 days old, so a run now pays it (it is before the period's end).
 */
async function clipper(walletChangedAt: Date | null): Promise<UserSnapshot> {
  const user = await h.newUser('clipper', { walletAddress: wallet(), walletChangedAt: walletChangedAt?.toISOString() ?? null });
  await h.submission('submission.approved', { userId: user.id });
  await h.db.query("UPDATE earnings SET created_at = created_at - interval '8 days' WHERE user_id = $1", [user.id]);
  return user;
}

/** identity's user.updated with `patch`, a second later than `user`; resolves once rewards applied it. */
async function updated(user: UserSnapshot, patch: Partial<UserSnapshot>, omitWalletChangedAt = false): Promise<UserSnapshot> {
  const next: Partial<UserSnapshot> = { ...user, ...patch, updatedAt: new Date(Date.parse(user.updatedAt) + 1000).toISOString() };
  if (omitWalletChangedAt) delete next.walletChangedAt;
  await h.publisher.publish('user.updated', {
    user: next as UserSnapshot,
    changed: Object.keys(patch).length > 0 ? Object.keys(patch) : ['displayName'],
  });
  await waitFor(
    async () =>
      (await h.count('SELECT count(*) FROM people WHERE id = $1 AND source_updated_at >= $2', [user.id, next.updatedAt])) === 1
        ? true
        : undefined,
    10_000,
    'user.updated applied',
  );
  return next as UserSnapshot;
}

const earningsOf = async (userId: string) =>
  (await h.db.query<{ status: string; payout_id: string | null }>('SELECT status, payout_id FROM earnings WHERE user_id = $1', [userId]))
    .rows;
const skipOf = async (userId: string) =>
  (
    await h.db.query<{ reason: string; amount: string; held_until: Date | null; released_at: Date | null }>(
      'SELECT reason, amount::text, held_until, released_at FROM payout_skips WHERE user_id = $1',
      [userId],
    )
  ).rows;
const walletChangedAtOf = async (userId: string) =>
  (await h.db.query<{ wallet_changed_at: Date | null }>('SELECT wallet_changed_at FROM people WHERE id = $1', [userId])).rows[0]!
    .wallet_changed_at;
const ledgerWallets = async () => (await h.client.listPayouts({ limit: 100 })).payouts.map((p) => p.walletAddress);

describe('payouts to a replaced wallet (ADR 0032)', () => {
  it('holds the earnings of a wallet changed 10 hours before the run (skip with its end, pending, not in the ledger, on the dashboard) and pays a wallet changed 80 hours before', async () => {
    const now = new Date();
    const changed = hoursBefore(now, 10);
    const heldUntil = new Date(changed.getTime() + 72 * HOUR);
    const held = await clipper(changed);
    const settled = await clipper(hoursBefore(now, 80));

    // Before any run: the dashboard tells the clipper, from the read model.
    const before = await h.client.getDashboard({ userId: held.id });
    expect(before.hold).toEqual({
      amount: '10',
      heldUntil: heldUntil.toISOString(),
      walletChangedAt: changed.toISOString(),
      reason: expect.stringContaining('Your wallet address was changed on'),
    });
    expect(before.hold!.reason).toContain('wait 72 hours');
    expect((await h.client.getDashboard({ userId: settled.id })).hold).toBeUndefined();

    const run = await runPayouts(h.app, now);
    expect(run.ran).toBe(true);
    expect(run.skipped).toContainEqual({ userId: held.id, reason: SKIP_WALLET_HELD, heldUntil: heldUntil.toISOString() });
    expect(run.skipped.map((s) => s.userId)).not.toContain(settled.id);

    expect(await earningsOf(held.id)).toEqual([{ status: 'pending', payout_id: null }]);
    expect(await skipOf(held.id)).toEqual([{ reason: SKIP_WALLET_HELD, amount: '10.000000', held_until: heldUntil, released_at: null }]);
    expect(await h.count('SELECT count(*) FROM payouts WHERE user_id = $1', [held.id])).toBe(0);
    expect((await earningsOf(settled.id)).map((e) => e.status)).toEqual(['paid']);

    // The public ledger lists the paid clipper and never the held one.
    const ledger = await ledgerWallets();
    expect(ledger).toContain(settled.walletAddress);
    expect(ledger).not.toContain(held.walletAddress);
    expect((await h.client.listPayouts({ limit: 10, userId: held.id })).payouts).toEqual([]);

    const after = await h.client.getDashboard({ userId: held.id });
    expect(after.hold).toMatchObject({ amount: '10', heldUntil: heldUntil.toISOString() });
    expect(after.earningsSummary).toEqual({ paid: '0', pending: '10', total: '10', held: '0' });
  });

  it('releases a hold once it is over: nothing before held_until, one payout after however often it runs, then in the ledger', async () => {
    const now = new Date();
    const held = await clipper(hoursBefore(now, 10));
    const run = await runPayouts(h.app, now);
    const heldUntil = new Date(run.skipped.find((s) => s.userId === held.id)!.heldUntil!);

    const early = await releaseHolds(h.app, new Date(heldUntil.getTime() - MINUTE));
    expect(early.released.map((r) => r.userId)).not.toContain(held.id);
    expect(await earningsOf(held.id)).toEqual([{ status: 'pending', payout_id: null }]);
    expect(await h.count('SELECT count(*) FROM payouts WHERE user_id = $1', [held.id])).toBe(0);

    const due = new Date(heldUntil.getTime() + MINUTE);
    const [one, two] = await Promise.all([releaseHolds(h.app, due), releaseHolds(h.app, due)]);
    const again = await releaseHolds(h.app, new Date(due.getTime() + MINUTE));
    const releases = [one, two, again].flatMap((r) => r.released.filter((x) => x.userId === held.id));
    expect(releases).toEqual([{ userId: held.id, periodEnd: run.periodEnd, paid: true }]);

    expect((await earningsOf(held.id)).map((e) => e.status)).toEqual(['paid']);
    expect(await h.count('SELECT count(*) FROM payouts WHERE user_id = $1', [held.id])).toBe(1);
    expect(await h.count('SELECT count(*) FROM ledger_transfers WHERE wallet_address = $1', [held.walletAddress])).toBe(1);
    expect((await skipOf(held.id))[0]!.released_at).toBeInstanceOf(Date);
    const mine = await h.client.listPayouts({ limit: 10, userId: held.id });
    expect(mine.payouts).toEqual([
      expect.objectContaining({ walletAddress: held.walletAddress, amount: '10', periodEnd: run.periodEnd, earningsCount: 1 }),
    ]);
    expect(await ledgerWallets()).toContain(held.walletAddress);
    // Nothing pending any more: the dashboard shows no hold, though the wallet's 72 hours are not over.
    expect((await h.client.getDashboard({ userId: held.id })).hold).toBeUndefined();

    // The weekly run again pays nothing twice.
    await runPayouts(h.app, now);
    expect(await h.count('SELECT count(*) FROM payouts WHERE user_id = $1', [held.id])).toBe(1);
    const paid = await waitFor(() =>
      h.events.find((e) => e.envelope.type === 'rewards.payout-paid' && (e.envelope.data as RewardsPayoutPaidV1).userId === held.id),
    );
    expect(paid.envelope.data).toMatchObject({ walletAddress: held.walletAddress, amount: '10', periodEnd: run.periodEnd });
  });

  it('renews the hold when the wallet is changed again during it, and pays the new wallet when that one is over', async () => {
    const now = new Date();
    const first = hoursBefore(now, 10);
    const user = await clipper(first);
    const run = await runPayouts(h.app, now);
    expect(run.skipped).toContainEqual({
      userId: user.id,
      reason: SKIP_WALLET_HELD,
      heldUntil: new Date(first.getTime() + 72 * HOUR).toISOString(),
    });

    // A second change, an hour ago.
    const second = hoursBefore(now, 1);
    const renewedUntil = new Date(second.getTime() + 72 * HOUR);
    const changed = await updated(user, { walletAddress: wallet(), walletChangedAt: second.toISOString() });
    expect((await h.client.getDashboard({ userId: user.id })).hold).toMatchObject({
      heldUntil: renewedUntil.toISOString(),
      walletChangedAt: second.toISOString(),
    });

    const firstEnd = await releaseHolds(h.app, new Date(first.getTime() + 72 * HOUR + MINUTE));
    expect(firstEnd.renewed).toContainEqual({ userId: user.id, periodEnd: run.periodEnd, heldUntil: renewedUntil.toISOString() });
    expect(firstEnd.released.map((r) => r.userId)).not.toContain(user.id);
    expect(await skipOf(user.id)).toEqual([{ reason: SKIP_WALLET_HELD, amount: '10.000000', held_until: renewedUntil, released_at: null }]);
    expect(await earningsOf(user.id)).toEqual([{ status: 'pending', payout_id: null }]);

    const secondEnd = await releaseHolds(h.app, new Date(renewedUntil.getTime() + MINUTE));
    expect(secondEnd.released).toContainEqual({ userId: user.id, periodEnd: run.periodEnd, paid: true });
    const payouts = (await h.client.listPayouts({ limit: 10, userId: user.id })).payouts;
    expect(payouts.map((p) => [p.walletAddress, p.amount])).toEqual([[changed.walletAddress, '10']]);
  });

  it('turns a hold into a no-wallet skip when the wallet is gone by its end: the earnings wait for the next run', async () => {
    const now = new Date();
    const user = await clipper(hoursBefore(now, 10));
    const run = await runPayouts(h.app, now);
    const heldUntil = new Date(run.skipped.find((s) => s.userId === user.id)!.heldUntil!);
    await updated(user, { walletAddress: null });

    const release = await releaseHolds(h.app, new Date(heldUntil.getTime() + MINUTE));
    expect(release.skipped).toContainEqual({ userId: user.id, periodEnd: run.periodEnd, reason: SKIP_NO_WALLET });
    expect(await skipOf(user.id)).toEqual([{ reason: SKIP_NO_WALLET, amount: '10.000000', held_until: null, released_at: null }]);
    expect(await earningsOf(user.id)).toEqual([{ status: 'pending', payout_id: null }]);
  });

  it('finishes a release that died after the transfer and before recording it: found by its reference, never sent again', async () => {
    const now = new Date();
    const user = await clipper(hoursBefore(now, 10));
    const run = await runPayouts(h.app, now);
    const due = new Date(Date.parse(run.skipped.find((s) => s.userId === user.id)!.heldUntil!) + MINUTE);
    const real = h.app.get<PayoutDriver>(PAYOUT_DRIVER);
    const sent: Transfer[] = [];
    const driver = (die: boolean): PayoutDriver => ({
      name: real.name,
      acceptsAddress: (a) => real.acceptsAddress(a),
      findByReference: (r, w) => real.findByReference(r, w),
      async send(t) {
        const signature = await real.send(t);
        sent.push(t);
        if (die) throw new Error('died after sending');
        return signature;
      },
    });
    const service = (die: boolean) =>
      new PayoutService(
        h.app.get(PayoutRepository),
        h.app.get(PeopleRepository),
        h.app.get(Outbox),
        driver(die),
        h.app.get(TransactionRunner),
      );

    await expect(service(true).releaseHolds(due)).rejects.toThrow('died after sending');
    expect((await earningsOf(user.id)).map((e) => [e.status, e.payout_id !== null])).toEqual([['pending', true]]);
    expect((await skipOf(user.id))[0]!.released_at).toBeNull();
    expect(await ledgerWallets()).not.toContain(user.walletAddress);

    // The next release, once the prepared payout has settled, finds the transfer and records it (other
    // holds of this file may be over by then too: only this clipper's transfers are counted).
    const next = await service(false).releaseHolds(new Date(due.getTime() + 5 * MINUTE));
    expect(next.ran).toBe(true);
    expect(next.recovered).toBeGreaterThanOrEqual(1);
    expect(next.released).toContainEqual({ userId: user.id, periodEnd: run.periodEnd, paid: true });
    expect(sent.filter((t) => t.walletAddress === user.walletAddress)).toHaveLength(1);
    expect((await earningsOf(user.id)).map((e) => e.status)).toEqual(['paid']);
    expect(await h.count('SELECT count(*) FROM ledger_transfers WHERE wallet_address = $1', [user.walletAddress])).toBe(1);
  });

  it('is released by the scheduled BullMQ job (release-holds, every 15 minutes) once the hold is over', async () => {
    const now = new Date();
    const user = await clipper(hoursBefore(now, 10));
    await runPayouts(h.app, now);
    // The 72 hours pass: the stamp and the hold moved back past them.
    await h.db.query("UPDATE people SET wallet_changed_at = now() - interval '73 hours' WHERE id = $1", [user.id]);
    await h.db.query("UPDATE payout_skips SET held_until = now() - interval '1 hour' WHERE user_id = $1", [user.id]);
    const queue = new Queue(REWARDS_QUEUE, { connection: { url: h.app.config.REDIS_URL }, prefix: `${h.app.config.REDIS_KEY_PREFIX}bull` });
    try {
      await queue.add(HOLD_RELEASE_JOB, {});
      await waitFor(async () => ((await earningsOf(user.id))[0]!.status === 'paid' ? true : undefined), 20_000, 'queued hold release');
    } finally {
      await queue.close();
    }
    expect(await ledgerWallets()).toContain(user.walletAddress);
  });

  it('keeps the stored wallet change when an event does not carry walletChangedAt, clears it on null, and never takes it from an older snapshot', async () => {
    const changed = hoursBefore(new Date(), 5);
    const user = await h.newUser('clipper', { walletAddress: wallet(), walletChangedAt: changed.toISOString() });
    expect(await walletChangedAtOf(user.id)).toEqual(changed);

    // An identity from before ADR 0032 publishes the snapshot without the field: the stamp stays.
    const renamed = await updated(user, { displayName: 'Renamed' }, true);
    expect(await walletChangedAtOf(user.id)).toEqual(changed);
    expect(
      (await h.db.query<{ display_name: string }>('SELECT display_name FROM people WHERE id = $1', [user.id])).rows[0]!.display_name,
    ).toBe('Renamed');

    // An older snapshot with another stamp changes nothing.
    const older = await h.publisher.publish('user.updated', {
      user: {
        ...user,
        walletChangedAt: hoursBefore(new Date(), 1).toISOString(),
        updatedAt: new Date(Date.parse(user.updatedAt) - 60_000).toISOString(),
      },
      changed: ['walletAddress'],
    });
    await waitFor(
      async () => ((await h.count('SELECT count(*) FROM inbox WHERE event_id = $1', [older.envelope.id])) === 1 ? true : undefined),
      10_000,
      'older event handled',
    );
    expect(await walletChangedAtOf(user.id)).toEqual(changed);

    // Null (the newest snapshot says it was never replaced) clears it.
    await updated(renamed, { walletChangedAt: null });
    expect(await walletChangedAtOf(user.id)).toBeNull();
  });
});

import { randomUUID } from 'node:crypto';
import { WALLET_CHANGE_HOLD_HOURS } from '@clipit/field-rules';
import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeAmount, toBaseUnits } from '../domain/amount.js';
import { holdUntil } from '../domain/hold.js';
import { payoutPeriod } from '../domain/period.js';
import { PAYOUT_DRIVER, type PayoutDriver } from '../payouts/payout-driver.js';
import { newReference } from '../payouts/reference.js';
import { PayoutRepository, type HeldSkip, type PayoutRow } from '../repositories/payout.repository.js';
import { PeopleRepository, type Payee } from '../repositories/people.repository.js';

/** Why a clipper owed money was not paid (their earnings wait for the next run). */
export const SKIP_NO_WALLET = 'no wallet address';
export const SKIP_BAD_WALLET = 'wallet address not accepted by the payout driver';
/** ADR 0032: the wallet was replaced less than 72 hours before; the skip carries `held_until`, and the hold release pays it then. */
export const SKIP_WALLET_HELD = `held: the wallet was changed less than ${WALLET_CHANGE_HOLD_HOURS} hours ago`;

/**
 * How long a payout left prepared must be old before the hold release finishes it: a transfer sent by a
 * run or release that died may still be in flight for this long (the jobs' retry waits as long, ADR 0025).
 */
export const PREPARED_SETTLE_MS = 120_000;

/** Clippers read per round. */
const GATHER_BATCH = 500;
/** Payouts prepared per transaction. */
const PREPARE_BATCH = 100;

export interface PayoutRunResult {
  /** False when another run held the lock: this one did nothing. */
  ran: boolean;
  periodStart: string;
  periodEnd: string;
  /** Payouts paid by this run (new ones and any left prepared by a run that died). */
  paid: number;
  /** Of those, payouts a run that died had already sent: found by reference and not sent again. */
  recovered: number;
  amount: string;
  /** Clippers owed and not paid, and why; `heldUntil` (ISO 8601) when their wallet's hold ends (ADR 0032). */
  skipped: { userId: string; reason: string; heldUntil?: string }[];
}

/** What a hold release did (ADR 0032). */
export interface HoldReleaseResult {
  /** False when a payout run or another release held the lock: this one did nothing. */
  ran: boolean;
  /** Payouts paid by this release, and of those the ones a release that died had sent already. */
  paid: number;
  recovered: number;
  amount: string;
  /** Holds over: their earnings paid now (`paid`), or nothing was left pending for that period. */
  released: { userId: string; periodEnd: string; paid: boolean }[];
  /** Holds renewed: the wallet was replaced again meanwhile; `heldUntil` the new end. */
  renewed: { userId: string; periodEnd: string; heldUntil: string }[];
  /** Holds turned into another skip (the wallet removed or refused): the earnings wait for the next run. */
  skipped: { userId: string; periodEnd: string; reason: string }[];
}

/** Where a payout to this person goes now; or why none does (and, for a hold, until when). */
function payability(
  payee: Payee | undefined,
  acceptsAddress: (wallet: string) => boolean,
  now: Date,
): { wallet: string } | { reason: string; heldUntil: Date | null } {
  const wallet = payee?.walletAddress?.trim() || null;
  if (!wallet) return { reason: SKIP_NO_WALLET, heldUntil: null };
  if (!acceptsAddress(wallet)) return { reason: SKIP_BAD_WALLET, heldUntil: null };
  const until = holdUntil(payee?.walletChangedAt, now);
  return until ? { reason: SKIP_WALLET_HELD, heldUntil: until } : { wallet };
}

/**
 * The weekly payout run (ADR 0025): each clipper's pending earnings created before the period's end go
 * into one payout to their wallet, exactly once however often the run is repeated or dies half-way:
 * 1. payouts left `prepared` by an earlier run are finished first (found on chain by reference, or sent);
 * 2. per clipper, in one transaction, the payout row (unique per clipper and period) and its earnings;
 * 3. per payout, the driver's transfer, then the payout and its earnings `paid` with the signature and a
 *    rewards.payout-paid event, in one transaction.
 * A clipper without a usable wallet is skipped with the reason; one whose wallet was replaced less than
 * 72 hours before the run is held (ADR 0032): skipped with `held_until`, and paid by `releaseHolds` once
 * that has passed. One run or release at a time (an advisory lock), whatever the number of replicas.
 */
@Injectable()
export class PayoutService {
  private readonly log = new Logger('PayoutService');

  constructor(
    private readonly payouts: PayoutRepository,
    private readonly people: PeopleRepository,
    private readonly outbox: Outbox,
    @Inject(PAYOUT_DRIVER) private readonly driver: PayoutDriver,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(now = new Date()): Promise<PayoutRunResult> {
    const { periodStart, periodEnd } = payoutPeriod(now);
    const result: PayoutRunResult = {
      ran: false,
      periodStart: periodStart.toISOString(),
      periodEnd: periodEnd.toISOString(),
      paid: 0,
      recovered: 0,
      amount: '0',
      skipped: [],
    };
    let total = 0n;
    await this.payouts.exclusively(async () => {
      result.ran = true;
      // 1. What an earlier run left prepared.
      for (const payout of await this.payouts.prepared(this.payouts.reader, 10_000)) total += await this.finish(payout, result, true);
      // 2 and 3, clipper by clipper.
      let after: string | null = null;
      for (;;) {
        const owed = await this.payouts.clippersOwed(this.payouts.reader, periodEnd, after, GATHER_BATCH);
        if (owed.length === 0) break;
        after = owed.at(-1)!;
        const wallets = await this.people.wallets(this.payouts.reader, owed);
        // Payouts are prepared PREPARE_BATCH clippers per transaction (each still its own row, unique
        // per clipper and period), then sent and marked paid one by one.
        for (let i = 0; i < owed.length; i += PREPARE_BATCH) {
          const prepared = await this.transactions.run(async (tx) => {
            const made: PayoutRow[] = [];
            for (const userId of owed.slice(i, i + PREPARE_BATCH)) {
              const to = payability(wallets.get(userId), (a) => this.driver.acceptsAddress(a), now);
              if ('reason' in to) {
                await this.payouts.skip(tx, userId, periodEnd, to.reason, to.heldUntil);
                result.skipped.push({ userId, reason: to.reason, ...(to.heldUntil ? { heldUntil: to.heldUntil.toISOString() } : {}) });
                continue;
              }
              const payout = await this.payouts.prepare(tx, {
                id: randomUUID(),
                userId,
                periodStart,
                periodEnd,
                walletAddress: to.wallet,
                driver: this.driver.name,
                reference: newReference(),
              });
              if (payout) made.push(payout);
            }
            return made;
          });
          // Fresh references: nothing can carry them yet, so there is nothing to look up before sending.
          for (const payout of prepared) total += await this.finish(payout, result, false);
        }
      }
    });
    result.amount = normalizeAmount(formatBaseUnits(total));
    if (!result.ran) this.log.warn('payout run skipped: another run holds the lock');
    else
      this.log.log(
        `payout run for the period ending ${result.periodEnd}: ${result.paid} paid (${result.recovered} recovered), ${result.amount} $CLIP, ${result.skipped.length} skipped`,
      );
    return result;
  }

  /**
   * Pays the earnings of every hold that is over at `now` (ADR 0032), without waiting for the next weekly
   * run, under the run's lock and along its path: per held skip whose `held_until` has passed, the wallet
   * is checked again (replaced again meanwhile: the hold is renewed to the new end; removed or refused:
   * the skip takes that reason and the earnings wait for the next run), then the clipper's pending
   * earnings of that skip's period go into the payout of that period (unique per clipper and period, so
   * a release repeated or racing a run pays once), sent and marked paid as a run does; the skip is then
   * released. A payout of that period left prepared by a release that died is finished once it is older
   * than PREPARED_SETTLE_MS.
   */
  async releaseHolds(now = new Date()): Promise<HoldReleaseResult> {
    const result: HoldReleaseResult = { ran: false, paid: 0, recovered: 0, amount: '0', released: [], renewed: [], skipped: [] };
    // Most quarter-hours nothing is due: answer without taking the lock a payout run may need.
    if ((await this.payouts.holdsDue(this.payouts.reader, now, undefined, 1)).length === 0) return { ...result, ran: true };
    let total = 0n;
    await this.payouts.exclusively(async () => {
      result.ran = true;
      let after: HeldSkip | undefined;
      for (;;) {
        const due = await this.payouts.holdsDue(this.payouts.reader, now, after, GATHER_BATCH);
        if (due.length === 0) break;
        after = due.at(-1)!;
        const payees = await this.people.wallets(this.payouts.reader, [...new Set(due.map((d) => d.userId))]);
        for (const skip of due) total += await this.release(skip, payees.get(skip.userId), now, result);
      }
    });
    result.amount = normalizeAmount(formatBaseUnits(total));
    if (!result.ran) this.log.warn('hold release skipped: a payout run holds the lock');
    else if (result.released.length + result.renewed.length + result.skipped.length > 0) {
      this.log.log(
        `hold release: ${result.released.length} released (${result.paid} paid, ${result.amount} $CLIP), ${result.renewed.length} renewed, ${result.skipped.length} skipped`,
      );
    }
    return result;
  }

  /** One held skip whose hold is over; the amount paid in base units. */
  private async release(skip: HeldSkip, payee: Payee | undefined, now: Date, result: HoldReleaseResult): Promise<bigint> {
    const periodEnd = skip.periodEnd.toISOString();
    const released = async (paid: boolean) => {
      await this.transactions.run((tx) => this.payouts.releaseSkip(tx, skip, new Date()));
      result.released.push({ userId: skip.userId, periodEnd, paid });
    };
    const existing = await this.payouts.ofPeriod(this.payouts.reader, skip.userId, skip.periodEnd);
    if (existing?.status === 'prepared') {
      // Prepared by a release (or a run) that died: finished like a run finishes it, once any transfer
      // it sent has landed or expired; until then the skip stays for the next release.
      if (existing.createdAt.getTime() > now.getTime() - PREPARED_SETTLE_MS) return 0n;
      const amount = await this.finish(existing, result, true);
      await released(true);
      return amount;
    }
    if (existing || (await this.payouts.owedBefore(this.payouts.reader, skip.userId, skip.periodEnd)) === 0) {
      // Paid already (a release that died before releasing the skip), or a later run paid the earnings.
      await released(false);
      return 0n;
    }
    const to = payability(payee, (a) => this.driver.acceptsAddress(a), now);
    if ('reason' in to) {
      await this.transactions.run((tx) => this.payouts.skip(tx, skip.userId, skip.periodEnd, to.reason, to.heldUntil));
      if (to.heldUntil) result.renewed.push({ userId: skip.userId, periodEnd, heldUntil: to.heldUntil.toISOString() });
      else result.skipped.push({ userId: skip.userId, periodEnd, reason: to.reason });
      return 0n;
    }
    const { periodStart } = payoutPeriod(skip.periodEnd);
    const payout = await this.transactions.run(async (tx) => {
      const made = await this.payouts.prepare(tx, {
        id: randomUUID(),
        userId: skip.userId,
        periodStart,
        periodEnd: skip.periodEnd,
        walletAddress: to.wallet,
        driver: this.driver.name,
        reference: newReference(),
      });
      if (!made) await this.payouts.releaseSkip(tx, skip, new Date());
      return made;
    });
    if (!payout) {
      result.released.push({ userId: skip.userId, periodEnd, paid: false });
      return 0n;
    }
    const amount = await this.finish(payout, result, false);
    await released(true);
    return amount;
  }

  /**
   * Sends a prepared payout unless its transfer exists already (`mayBeSent`: a payout an earlier run
   * prepared), then marks it paid; the amount paid in base units.
   */
  private async finish(payout: PayoutRow, result: { paid: number; recovered: number }, mayBeSent: boolean): Promise<bigint> {
    const amount = toBaseUnits(payout.amount);
    let signature = mayBeSent ? await this.driver.findByReference(payout.reference, payout.walletAddress) : undefined;
    if (signature) result.recovered += 1;
    else
      signature = await this.driver.send({
        reference: payout.reference,
        walletAddress: payout.walletAddress,
        amount,
        memo: `clipit payout ${payout.id}`,
      });
    const paidAt = new Date();
    await this.transactions.run(async (tx) => {
      if (!(await this.payouts.lockPrepared(tx, payout.id))) return;
      await this.payouts.markPaid(tx, payout.id, signature, paidAt);
      await this.outbox.append(tx, 'rewards.payout-paid', {
        payoutId: payout.id,
        userId: payout.userId,
        walletAddress: payout.walletAddress,
        amount: normalizeAmount(payout.amount),
        txHash: signature,
        periodStart: payout.periodStart.toISOString(),
        periodEnd: payout.periodEnd.toISOString(),
        at: paidAt.toISOString(),
      });
    });
    result.paid += 1;
    return amount;
  }
}

function formatBaseUnits(units: bigint): string {
  const whole = units / 1_000_000n;
  const fraction = (units % 1_000_000n).toString().padStart(6, '0');
  return `${whole}.${fraction}`;
}

import { randomUUID } from 'node:crypto';
import { Outbox } from '@clipit/service-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeAmount, toBaseUnits } from '../domain/amount.js';
import { payoutPeriod } from '../domain/period.js';
import { PAYOUT_DRIVER, type PayoutDriver } from '../payouts/payout-driver.js';
import { newReference } from '../payouts/reference.js';
import { PayoutRepository, type PayoutRow } from '../repositories/payout.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';

/** Why a clipper owed money was not paid (their earnings wait for the next run). */
export const SKIP_NO_WALLET = 'no wallet address';
export const SKIP_BAD_WALLET = 'wallet address not accepted by the payout driver';

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
  skipped: { userId: string; reason: string }[];
}

/**
 * The weekly payout run (ADR 0025): each clipper's pending earnings created before the period's end go
 * into one payout to their wallet, exactly once however often the run is repeated or dies half-way:
 * 1. payouts left `prepared` by an earlier run are finished first (found on chain by reference, or sent);
 * 2. per clipper, in one transaction, the payout row (unique per clipper and period) and its earnings;
 * 3. per payout, the driver's transfer, then the payout and its earnings `paid` with the signature and a
 *    rewards.payout-paid event, in one transaction.
 * One run at a time (an advisory lock), whatever the number of replicas.
 */
@Injectable()
export class PayoutService {
  private readonly log = new Logger('PayoutService');

  constructor(
    private readonly payouts: PayoutRepository,
    private readonly people: PeopleRepository,
    private readonly outbox: Outbox,
    @Inject(PAYOUT_DRIVER) private readonly driver: PayoutDriver,
  ) {}

  async run(now = new Date()): Promise<PayoutRunResult> {
    const { periodStart, periodEnd } = payoutPeriod(now);
    const result: PayoutRunResult = { ran: false, periodStart: periodStart.toISOString(), periodEnd: periodEnd.toISOString(), paid: 0, recovered: 0, amount: '0', skipped: [] };
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
          const prepared = await this.payouts.transaction(async (tx) => {
            const made: PayoutRow[] = [];
            for (const userId of owed.slice(i, i + PREPARE_BATCH)) {
              const wallet = wallets.get(userId)?.trim() || null;
              const reason = !wallet ? SKIP_NO_WALLET : this.driver.acceptsAddress(wallet) ? undefined : SKIP_BAD_WALLET;
              if (reason) {
                await this.payouts.skip(tx, userId, periodEnd, reason);
                result.skipped.push({ userId, reason });
                continue;
              }
              const payout = await this.payouts.prepare(tx, { id: randomUUID(), userId, periodStart, periodEnd, walletAddress: wallet!, driver: this.driver.name, reference: newReference() });
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
    else this.log.log(`payout run for the period ending ${result.periodEnd}: ${result.paid} paid (${result.recovered} recovered), ${result.amount} $CLIP, ${result.skipped.length} skipped`);
    return result;
  }

  /**
   * Sends a prepared payout unless its transfer exists already (`mayBeSent`: a payout an earlier run
   * prepared), then marks it paid; the amount paid in base units.
   */
  private async finish(payout: PayoutRow, result: PayoutRunResult, mayBeSent: boolean): Promise<bigint> {
    const amount = toBaseUnits(payout.amount);
    let signature = mayBeSent ? await this.driver.findByReference(payout.reference, payout.walletAddress) : undefined;
    if (signature) result.recovered += 1;
    else signature = await this.driver.send({ reference: payout.reference, walletAddress: payout.walletAddress, amount, memo: `clipit payout ${payout.id}` });
    const paidAt = new Date();
    await this.payouts.transaction(async (tx) => {
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

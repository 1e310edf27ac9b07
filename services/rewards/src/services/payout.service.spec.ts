import { Outbox, TransactionRunner } from '@clipit/service-kit';
import { automock, createTestService, runTransactionsWith } from '@clipit/testing';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { AT, CLIPPER_ID, daysBefore, reader, tx, withReader } from '../../test/support/unit-fixtures.js';
import { PAYOUT_DRIVER, type PayoutDriver } from '../payouts/payout-driver.js';
import { PayoutRepository, type PayoutRow } from '../repositories/payout.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { PayoutService, PREPARED_SETTLE_MS, SKIP_BAD_WALLET, SKIP_NO_WALLET, SKIP_WALLET_HELD } from './payout.service.js';

// The weekly payout run and the hold release with the repositories, the driver and the outbox
// auto-mocked: who is paid, skipped or held and why, that a payout an earlier run may have sent is looked
// up before anything is sent again, and rewards.payout-paid with each payout marked paid. The exactly-once
// proofs against a real database and chain are the integration tests'.

const OTHER = '5d1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';
const THIRD = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const FOURTH = '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
// AT is a Friday noon: the period is the week that ended at its midnight.
const PERIOD_END = new Date('2026-11-27T00:00:00.000Z');
const PERIOD_START = new Date('2026-11-20T00:00:00.000Z');

const payout = (patch: Partial<PayoutRow> = {}): PayoutRow => ({
  id: 'p0000000-0000-4000-8000-000000000001',
  userId: CLIPPER_ID,
  periodStart: PERIOD_START,
  periodEnd: PERIOD_END,
  walletAddress: 'good-wallet',
  amount: '25.500000',
  earningsCount: 2,
  status: 'prepared',
  driver: 'ledger',
  reference: 'ref-1',
  txHash: null,
  createdAt: AT,
  paidAt: null,
  ...patch,
});

function setup() {
  const driver = Object.assign(automock<PayoutDriver>('PayoutDriver', ['acceptsAddress', 'findByReference', 'send']), { name: 'ledger' });
  driver.acceptsAddress.mockImplementation((wallet) => wallet !== 'not-an-address');
  driver.send.mockResolvedValue('sig-sent');
  const { service, mock } = createTestService(PayoutService, { [PAYOUT_DRIVER]: driver });
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const payouts = withReader(mock(PayoutRepository));
  payouts.exclusively.mockImplementation(async (work) => work());
  payouts.lockPrepared.mockImplementation(async (_tx, id) => payout({ id }));
  payouts.markPaid.mockResolvedValue(undefined);
  payouts.skip.mockResolvedValue(undefined);
  payouts.releaseSkip.mockResolvedValue(undefined);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, driver, transactions, payouts, people: mock(PeopleRepository), outbox };
}

beforeAll(() => {
  Logger.overrideLogger(false);
});

describe('PayoutService.run', () => {
  it('pays each clipper with a usable wallet once, and skips or holds the others with the reason', async () => {
    const f = setup();
    f.payouts.prepared.mockResolvedValue([]);
    f.payouts.clippersOwed.mockResolvedValueOnce([CLIPPER_ID, OTHER, THIRD, FOURTH]).mockResolvedValueOnce([]);
    const changed = new Date(AT.getTime() - 3_600_000);
    f.people.wallets.mockResolvedValue(
      new Map([
        [CLIPPER_ID, { walletAddress: ' good-wallet ', walletChangedAt: daysBefore(30) }],
        [OTHER, { walletAddress: null, walletChangedAt: null }],
        [THIRD, { walletAddress: 'not-an-address', walletChangedAt: null }],
        [FOURTH, { walletAddress: 'new-wallet', walletChangedAt: changed }],
      ]),
    );
    f.payouts.prepare.mockImplementation(async (_tx, p) => payout({ id: p.id, userId: p.userId, reference: p.reference }));

    const result = await f.service.run(AT);

    const heldUntil = new Date(changed.getTime() + 72 * 3_600_000);
    expect(result).toEqual({
      ran: true,
      periodStart: PERIOD_START.toISOString(),
      periodEnd: PERIOD_END.toISOString(),
      paid: 1,
      recovered: 0,
      amount: '25.5',
      skipped: [
        { userId: OTHER, reason: SKIP_NO_WALLET },
        { userId: THIRD, reason: SKIP_BAD_WALLET },
        { userId: FOURTH, reason: SKIP_WALLET_HELD, heldUntil: heldUntil.toISOString() },
      ],
    });
    expect(f.payouts.clippersOwed).toHaveBeenCalledWith(reader, PERIOD_END, null, 500);
    expect(f.payouts.skip.mock.calls).toEqual([
      [tx, OTHER, PERIOD_END, SKIP_NO_WALLET, null],
      [tx, THIRD, PERIOD_END, SKIP_BAD_WALLET, null],
      [tx, FOURTH, PERIOD_END, SKIP_WALLET_HELD, heldUntil],
    ]);
    expect(f.payouts.prepare).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({
        userId: CLIPPER_ID,
        periodStart: PERIOD_START,
        periodEnd: PERIOD_END,
        walletAddress: 'good-wallet',
        driver: 'ledger',
      }),
    );
    // A fresh payout is sent without a look-up: nothing can carry its new reference yet.
    expect(f.driver.findByReference).not.toHaveBeenCalled();
    const { id, reference } = f.payouts.prepare.mock.calls[0]![1];
    expect(f.driver.send).toHaveBeenCalledWith({
      reference,
      walletAddress: 'good-wallet',
      amount: 25_500_000n,
      memo: `clipit payout ${id}`,
    });
    expect(f.payouts.markPaid).toHaveBeenCalledWith(tx, id, 'sig-sent', expect.any(Date));
    expect(f.outbox.append).toHaveBeenCalledWith(
      tx,
      'rewards.payout-paid',
      expect.objectContaining({
        payoutId: id,
        userId: CLIPPER_ID,
        amount: '25.5',
        txHash: 'sig-sent',
        periodEnd: PERIOD_END.toISOString(),
      }),
    );
  });

  it('finishes what a run that died left prepared first: found on chain it is marked paid, not sent again', async () => {
    const f = setup();
    f.payouts.prepared.mockResolvedValue([payout({ reference: 'ref-old' }), payout({ id: 'p2', reference: 'ref-lost' })]);
    f.driver.findByReference.mockImplementation(async (reference) => (reference === 'ref-old' ? 'sig-landed' : undefined));
    f.payouts.clippersOwed.mockResolvedValue([]);
    const result = await f.service.run(AT);
    expect(result).toMatchObject({ paid: 2, recovered: 1, amount: '51' });
    expect(f.driver.send).toHaveBeenCalledTimes(1);
    expect(f.driver.send).toHaveBeenCalledWith(expect.objectContaining({ reference: 'ref-lost' }));
    expect(f.payouts.markPaid.mock.calls.map(([, id, sig]) => [id, sig])).toEqual([
      [payout().id, 'sig-landed'],
      ['p2', 'sig-sent'],
    ]);
  });

  it('publishes nothing for a payout another run marked paid meanwhile', async () => {
    const f = setup();
    f.payouts.prepared.mockResolvedValue([payout()]);
    f.driver.findByReference.mockResolvedValue('sig-landed');
    f.payouts.clippersOwed.mockResolvedValue([]);
    f.payouts.lockPrepared.mockResolvedValue(undefined);
    await f.service.run(AT);
    expect(f.payouts.markPaid).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('does nothing while another run holds the lock', async () => {
    const f = setup();
    f.payouts.exclusively.mockResolvedValue(undefined);
    await expect(f.service.run(AT)).resolves.toMatchObject({ ran: false, paid: 0, amount: '0', skipped: [] });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });
});

describe('PayoutService.releaseHolds', () => {
  const skip = { userId: CLIPPER_ID, periodEnd: PERIOD_END };
  const due = (f: ReturnType<typeof setup>) =>
    f.payouts.holdsDue.mockResolvedValueOnce([skip]).mockResolvedValueOnce([skip]).mockResolvedValue([]);

  it('answers at once, without the lock, when no hold is over', async () => {
    const f = setup();
    f.payouts.holdsDue.mockResolvedValue([]);
    await expect(f.service.releaseHolds(AT)).resolves.toMatchObject({ ran: true, paid: 0, released: [] });
    expect(f.payouts.exclusively).not.toHaveBeenCalled();
  });

  it('pays the period’s earnings to the wallet once its hold is over, and releases the skip', async () => {
    const f = setup();
    due(f);
    f.people.wallets.mockResolvedValue(new Map([[CLIPPER_ID, { walletAddress: 'new-wallet', walletChangedAt: daysBefore(4) }]]));
    f.payouts.ofPeriod.mockResolvedValue(undefined);
    f.payouts.owedBefore.mockResolvedValue(2);
    f.payouts.prepare.mockImplementation(async (_tx, p) => payout({ id: p.id, walletAddress: p.walletAddress, reference: p.reference }));
    const result = await f.service.releaseHolds(AT);
    expect(f.payouts.prepare).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ periodStart: PERIOD_START, periodEnd: PERIOD_END, walletAddress: 'new-wallet' }),
    );
    expect(result).toMatchObject({
      ran: true,
      paid: 1,
      amount: '25.5',
      released: [{ userId: CLIPPER_ID, periodEnd: PERIOD_END.toISOString(), paid: true }],
    });
    expect(f.payouts.releaseSkip).toHaveBeenCalledWith(tx, skip, expect.any(Date));
  });

  it('renews the hold when the wallet was replaced again meanwhile, paying nothing', async () => {
    const f = setup();
    due(f);
    const again = new Date(AT.getTime() - 3_600_000);
    f.people.wallets.mockResolvedValue(new Map([[CLIPPER_ID, { walletAddress: 'newer-wallet', walletChangedAt: again }]]));
    f.payouts.ofPeriod.mockResolvedValue(undefined);
    f.payouts.owedBefore.mockResolvedValue(2);
    const result = await f.service.releaseHolds(AT);
    const until = new Date(again.getTime() + 72 * 3_600_000);
    expect(result.renewed).toEqual([{ userId: CLIPPER_ID, periodEnd: PERIOD_END.toISOString(), heldUntil: until.toISOString() }]);
    expect(f.payouts.skip).toHaveBeenCalledWith(tx, CLIPPER_ID, PERIOD_END, SKIP_WALLET_HELD, until);
    expect(f.driver.send).not.toHaveBeenCalled();
  });

  it('only releases the skip when the period was paid already or nothing is owed', async () => {
    const f = setup();
    due(f);
    f.people.wallets.mockResolvedValue(new Map());
    f.payouts.ofPeriod.mockResolvedValue(payout({ status: 'paid' }));
    const result = await f.service.releaseHolds(AT);
    expect(result.released).toEqual([{ userId: CLIPPER_ID, periodEnd: PERIOD_END.toISOString(), paid: false }]);
    expect(f.payouts.prepare).not.toHaveBeenCalled();
    expect(f.driver.send).not.toHaveBeenCalled();
  });

  it('leaves a payout a release prepared moments ago for a later release, in case its transfer is in flight', async () => {
    const f = setup();
    due(f);
    f.people.wallets.mockResolvedValue(new Map());
    f.payouts.ofPeriod.mockResolvedValue(payout({ createdAt: new Date(AT.getTime() - PREPARED_SETTLE_MS + 1000) }));
    const result = await f.service.releaseHolds(AT);
    expect(result).toMatchObject({ paid: 0, released: [] });
    expect(f.driver.findByReference).not.toHaveBeenCalled();
    expect(f.payouts.releaseSkip).not.toHaveBeenCalled();
  });
});

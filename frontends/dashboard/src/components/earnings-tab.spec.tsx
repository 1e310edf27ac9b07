import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { earningsAnswer, payoutsAnswer } from '../testing/fixtures.js';
import { EarningsTab } from './earnings-tab.js';

const SUMMARY = { paid: 20, pending: 10.5, held: 0, total: 30.5 };

describe('the Earnings tab', () => {
  it('shows paid, pending and total, the payouts with their transactions and each clip earning', async () => {
    fakeGateway(({ url }) =>
      url === '/api/earnings/payouts'
        ? { json: payoutsAnswer }
        : url === '/api/earnings'
          ? { json: earningsAnswer }
          : { status: 404, text: 'No such route' },
    );
    renderScreen(<EarningsTab summary={SUMMARY} />);
    const summary = screen.getByRole('list', { name: 'Earnings summary' });
    expect(within(summary).getByRole('heading', { name: 'Paid' }).closest('li')).toHaveTextContent('20 $CLIP');
    expect(within(summary).getByRole('heading', { name: 'Pending' }).closest('li')).toHaveTextContent('10.5 $CLIP');
    expect(within(summary).getByRole('heading', { name: 'Total' }).closest('li')).toHaveTextContent('30.5 $CLIP');

    const payouts = within(await screen.findByRole('list', { name: 'Payouts' })).getAllByRole('listitem');
    expect(payouts).toHaveLength(2);
    expect(payouts[0]).toHaveTextContent('20 $CLIP');
    expect(payouts[0]).toHaveTextContent(/Period Nov 1[23], 2026 • .* – Nov (19|20), 2026 •/);
    expect(payouts[0]).toHaveTextContent('2 clips');
    const chainLink = within(payouts[0]!).getByRole('link', { name: /View transaction .* on Solscan/ });
    expect(chainLink).toHaveAttribute('href', 'https://solscan.io/tx/5kSolanaSignatureAbcdefghijkLMNOP');
    expect(chainLink).toHaveAttribute('target', '_blank');
    // A ledger payout has no chain transaction: its record is text, not a link.
    expect(within(payouts[1]!).queryByRole('link')).toBeNull();
    expect(payouts[1]).toHaveTextContent('Ledger record ledger-7f3a');

    const earnings = within(await screen.findByRole('list', { name: 'Earnings' })).getAllByRole('listitem');
    expect(earnings.map((li) => within(li).getByRole('heading').textContent)).toEqual(['Fresh clip', 'Big win clip']);
    expect(earnings[0]).toHaveTextContent('Pending');
    expect(earnings[0]).toHaveTextContent('10.5 $CLIP');
    expect(earnings[1]).toHaveTextContent('Paid');
  });

  it('shows a held earning as Held with why, out of pending and in the held total, and a voided one with the admin’s reason (ADR 0050)', async () => {
    const [fresh, paid] = earningsAnswer.earnings as [(typeof earningsAnswer.earnings)[number], (typeof earningsAnswer.earnings)[number]];
    const reupload = 'Its video matches a clip submitted earlier by another clipper.';
    const earnings = [
      { ...fresh, id: 'e-3', submissionName: 'Flagged clip', amount: 15, status: 'held' as const, holdReasons: [reupload] },
      {
        ...fresh,
        id: 'e-4',
        submissionName: 'Copied clip',
        amount: 15,
        status: 'voided' as const,
        holdReasons: [reupload],
        decision: { decision: 'voided' as const, reason: 'This clip is another clipper’s upload.', at: '2026-11-23T12:00:00.000Z' },
      },
      paid,
    ];
    fakeGateway(({ url }) =>
      url === '/api/earnings/payouts'
        ? { json: payoutsAnswer }
        : url === '/api/earnings'
          ? { json: { earnings, nextCursor: null } }
          : { status: 404 },
    );
    renderScreen(<EarningsTab summary={{ paid: 20, pending: 0, held: 15, total: 35 }} />);
    const summary = screen.getByRole('list', { name: 'Earnings summary' });
    expect(within(summary).getByRole('heading', { name: 'Pending' }).closest('li')).toHaveTextContent('0 $CLIP');
    expect(within(summary).getByRole('heading', { name: 'Held' }).closest('li')).toHaveTextContent('15 $CLIP');

    const items = within(await screen.findByRole('list', { name: 'Earnings' })).getAllByRole('listitem', { name: undefined });
    const flagged = items.find((li) => within(li).queryByRole('heading', { name: 'Flagged clip' }))!;
    expect(within(flagged).getByText('Held')).toHaveClass('clip-badge--warning');
    expect(within(flagged).getByRole('note', { name: 'Why Flagged clip is held' })).toHaveTextContent(reupload);
    const copied = items.find((li) => within(li).queryByRole('heading', { name: 'Copied clip' }))!;
    expect(within(copied).getByText('Voided')).toHaveClass('clip-badge--destructive');
    expect(within(copied).getByRole('note', { name: 'Why Copied clip was voided' })).toHaveTextContent(
      'Voided: This clip is another clipper’s upload.',
    );
  });

  it('says how much is on hold after a wallet change, why and until when', () => {
    fakeGateway(({ url }) => (url === '/api/earnings/payouts' ? { json: payoutsAnswer } : { json: earningsAnswer }));
    const reason = 'Your wallet address was changed on 27 November 2026 at 02:00 UTC: payouts to a new wallet wait 72 hours.';
    renderScreen(
      <EarningsTab
        summary={SUMMARY}
        hold={{ amount: 10.5, reason, heldUntil: '2026-11-30T02:00:00.000Z', walletChangedAt: '2026-11-27T02:00:00.000Z' }}
      />,
    );
    const hold = screen.getByRole('status', { name: 'Payouts on hold' });
    expect(hold).toHaveTextContent(/^10\.5 \$CLIP on hold until Nov 30, 2026 • /);
    expect(hold).toHaveTextContent(reason);
  });

  it('has empty states, and pages on with the cursor', async () => {
    const gateway = fakeGateway(({ url }) => {
      if (url === '/api/earnings/payouts') return { json: { payouts: [], nextCursor: null } };
      if (url === '/api/earnings') return { json: { earnings: [earningsAnswer.earnings[0]], nextCursor: 'c2' } };
      if (url === '/api/earnings?cursor=c2') return { json: { earnings: [earningsAnswer.earnings[1]], nextCursor: null } };
      return { status: 404, text: 'No such route' };
    });
    renderScreen(<EarningsTab summary={{ paid: 0, pending: 0, held: 0, total: 0 }} />);
    expect(await screen.findByText(/No payouts yet/)).toBeVisible();
    await userEvent.click(await screen.findByRole('button', { name: 'Load more earnings' }));
    expect(await screen.findByRole('heading', { name: 'Big win clip' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more earnings' })).toBeNull();
    expect(gateway.calls.map((c) => c.url)).toContain('/api/earnings?cursor=c2');
  });

  it('says when a list cannot be read', async () => {
    fakeGateway(({ url }) =>
      url === '/api/earnings' ? { json: { earnings: [], nextCursor: null } } : { status: 503, text: 'Rewards is unavailable' },
    );
    renderScreen(<EarningsTab summary={SUMMARY} />);
    expect(await screen.findByText('Error: 503: Rewards is unavailable')).toBeVisible();
    expect(await screen.findByText(/No earnings yet/)).toBeVisible();
  });
});

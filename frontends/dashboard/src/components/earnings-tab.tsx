import { Badge, Button, Card, CardContent, CardHeader, CardTitle, formatDate, Skeleton } from '@clipit/ui';
import { apiJson } from '@clipit/web-api';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  earningsKey,
  formatClip,
  payoutsKey,
  type Dashboard,
  type Earning,
  type EarningsPage,
  type Payout,
  type PayoutsPage,
} from '../lib/dashboard-data.js';
import { payoutTransactionUrl, shortSignature } from '../lib/payout-links.js';

/** GET a paged list: the first page at its plain path (as the gateway serves it), the next with ?cursor=. */
function pageUrl(path: string, cursor: string | null): string {
  return cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path;
}

function usePages<Page extends { nextCursor: string | null }>(key: readonly [string]) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => apiJson<Page>('GET', pageUrl(key[0], pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

function ListState({ isPending, error, label }: { isPending: boolean; error: Error | null; label: string }) {
  if (isPending) {
    return (
      <div className="clipit-dash-stack" aria-busy="true">
        <span className="clip-sr-only" role="status">
          Loading {label}
        </span>
        <Skeleton className="clipit-dash-skeleton-row" />
        <Skeleton className="clipit-dash-skeleton-row" />
      </div>
    );
  }
  return error ? <p role="alert">Error: {error.message}</p> : null;
}

function MoreButton({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  label,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  label: string;
}) {
  if (!hasNextPage) return null;
  return (
    <Button variant="outline" size="sm" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
      {isFetchingNextPage ? 'Loading...' : `Load more ${label}`}
    </Button>
  );
}

/** A payout's transaction: the explorer link for a Solana transfer, the ledger's reference as text otherwise. */
export function PayoutTransaction({ payout }: { payout: Pick<Payout, 'driver' | 'signature'> }) {
  const url = payoutTransactionUrl(payout);
  if (url) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" title={payout.signature}>
        View transaction {shortSignature(payout.signature)}
        <span className="clip-sr-only"> on Solscan (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <span className="clipit-dash-muted">
      Ledger record <code title={payout.signature}>{shortSignature(payout.signature)}</code>
    </span>
  );
}

function PayoutItem({ payout }: { payout: Payout }) {
  return (
    <li className="clipit-dash-list__item">
      <div className="clipit-dash-list__main">
        <h4 className="clipit-dash-list__title">{formatClip(payout.amount)}</h4>
        <p className="clipit-dash-muted">
          Period {formatDate(payout.periodStart)} – {formatDate(payout.periodEnd)} · {payout.earningsCount}{' '}
          {payout.earningsCount === 1 ? 'clip' : 'clips'}
        </p>
        <p className="clipit-dash-muted">Paid {formatDate(payout.paidAt)}</p>
        <p>
          <PayoutTransaction payout={payout} />
        </p>
      </div>
      <Badge variant="success">Paid</Badge>
    </li>
  );
}

const EARNING_STATUS = {
  pending: { label: 'Pending', variant: 'warning' },
  held: { label: 'Held', variant: 'warning' },
  voided: { label: 'Voided', variant: 'destructive' },
  paid: { label: 'Paid', variant: 'success' },
} as const;

/** An earning: held with why (its clip is flagged, ADR 0050), voided with the admin's reason. */
function EarningItem({ earning }: { earning: Earning }) {
  const status = EARNING_STATUS[earning.status];
  const title = earning.submissionName ?? 'Approved clip';
  return (
    <li className="clipit-dash-list__item">
      <div className="clipit-dash-list__main">
        <h4 className="clipit-dash-list__title">{title}</h4>
        <p className="clipit-dash-muted">
          {formatClip(earning.amount)} · <time dateTime={earning.createdAt}>{formatDate(earning.createdAt)}</time>
        </p>
        {earning.status === 'held' ? (
          <div className="clipit-dash-note" role="note" aria-label={`Why ${title} is held`}>
            <p>Held until an admin reviews it; it is not paid until then.</p>
            <ul>
              {earning.holdReasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {earning.status === 'voided' && earning.decision ? (
          <p className="clipit-dash-note" role="note" aria-label={`Why ${title} was voided`}>
            Voided: {earning.decision.reason}
          </p>
        ) : null}
      </div>
      <Badge variant={status.variant}>{status.label}</Badge>
    </li>
  );
}

/**
 * The Earnings tab (spec 02 §2.2, ADR 0025): paid, pending, held (ADR 0050: not paid until an admin
 * releases it) and total; the weekly payouts with their transactions; each clip's earning.
 */
export function EarningsTab({ summary, hold = null }: { summary: Dashboard['earningsSummary']; hold?: Dashboard['payoutHold'] }) {
  const payouts = usePages<PayoutsPage>(payoutsKey);
  const earnings = usePages<EarningsPage>(earningsKey);
  const payoutList = payouts.data?.pages.flatMap((page) => page.payouts) ?? [];
  const earningList = earnings.data?.pages.flatMap((page) => page.earnings) ?? [];

  return (
    <div className="clipit-dash-stack clipit-dash-stack--wide">
      <ul className="clipit-dash-grid clipit-dash-grid--4" aria-label="Earnings summary">
        {(
          [
            ['Paid', summary.paid],
            ['Pending', summary.pending],
            ['Held', summary.held],
            ['Total', summary.total],
          ] as const
        ).map(([title, amount]) => (
          <li key={title}>
            <Card className="clipit-dash-stat">
              <CardHeader>
                <CardTitle level={3} className="clipit-dash-stat__title">
                  {title}
                </CardTitle>
              </CardHeader>
              <CardContent>
                <p className="clipit-dash-stat__value">{formatClip(amount)}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <p className="clipit-dash-muted">Payouts are sent weekly on Fridays to your Solana wallet address.</p>
      {hold ? (
        <div className="clipit-dash-note clipit-dash-hold" role="status" aria-label="Payouts on hold">
          <strong>
            {formatClip(hold.amount)} on hold until {formatDate(hold.heldUntil)}
          </strong>
          <p>{hold.reason}</p>
        </div>
      ) : null}

      <section aria-labelledby="dash-payouts-title" className="clipit-dash-stack">
        <h3 id="dash-payouts-title" className="clipit-dash-subtitle">
          Payouts
        </h3>
        <ListState isPending={payouts.isPending} error={payouts.error} label="payouts" />
        {payouts.isSuccess && payoutList.length === 0 ? (
          <p className="clipit-dash-muted">No payouts yet. Approved clips are paid on the next Friday.</p>
        ) : null}
        {payoutList.length > 0 ? (
          <ul className="clipit-dash-list" aria-label="Payouts">
            {payoutList.map((payout) => (
              <PayoutItem key={payout.id} payout={payout} />
            ))}
          </ul>
        ) : null}
        <MoreButton {...payouts} label="payouts" />
      </section>

      <section aria-labelledby="dash-earnings-title" className="clipit-dash-stack">
        <h3 id="dash-earnings-title" className="clipit-dash-subtitle">
          Earnings
        </h3>
        <ListState isPending={earnings.isPending} error={earnings.error} label="earnings" />
        {earnings.isSuccess && earningList.length === 0 ? (
          <p className="clipit-dash-muted">No earnings yet. Every approved clip earns your tier's rate.</p>
        ) : null}
        {earningList.length > 0 ? (
          <ul className="clipit-dash-list" aria-label="Earnings">
            {earningList.map((earning) => (
              <EarningItem key={earning.id} earning={earning} />
            ))}
          </ul>
        ) : null}
        <MoreButton {...earnings} label="earnings" />
      </section>
    </div>
  );
}

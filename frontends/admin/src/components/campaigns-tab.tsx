import { Button, Select, Skeleton, Spinner } from '@clipit/ui';
import { useState } from 'react';
import { CAMPAIGN_STATUS_LABEL, CAMPAIGN_STATUSES, type CampaignStatus } from '../lib/campaign-view.js';
import { useCampaigns } from '../lib/queries.js';
import { useFailureToast } from '../lib/use-failure-toast.js';
import { CampaignCard } from './campaign-card.js';

export const CAMPAIGNS_ERROR = 'Failed to fetch campaigns';
export const CAMPAIGNS_EMPTY = 'No campaigns yet';

const FILTER_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...CAMPAIGN_STATUSES.map((status) => ({ value: status, label: CAMPAIGN_STATUS_LABEL[status] })),
];

/** Campaigns (ADR 0027): every CPM campaign newest first, optionally of one status, a page at a time, refetched every 30 s. */
export function CampaignsTab() {
  const [status, setStatus] = useState<CampaignStatus | null>(null);
  const campaigns = useCampaigns(status);
  useFailureToast(campaigns.error, campaigns.errorUpdatedAt, CAMPAIGNS_ERROR);

  const filter = (
    <div className="clipit-admin-filter">
      <Select
        label="Status"
        name="campaign-status"
        options={FILTER_OPTIONS}
        value={status ?? ''}
        onChange={(event) => setStatus((event.target.value || null) as CampaignStatus | null)}
      />
    </div>
  );

  let body;
  if (campaigns.isPending) {
    body = (
      <div className="clipit-admin-list" aria-busy="true">
        <Spinner label="Loading campaigns" />
        {[0, 1].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
            <Skeleton shape="text" />
          </div>
        ))}
      </div>
    );
  } else if (campaigns.isError && !campaigns.data) {
    body = (
      <p className="clipit-admin-error-text" role="alert">
        {CAMPAIGNS_ERROR}
      </p>
    );
  } else {
    const list = campaigns.data.pages.flatMap((page) => page.campaigns);
    body =
      list.length === 0 ? (
        <p className="clipit-admin-empty">{status ? `No ${CAMPAIGN_STATUS_LABEL[status].toLowerCase()} campaigns` : CAMPAIGNS_EMPTY}</p>
      ) : (
        <div className="clipit-admin-list">
          <ul className="clipit-admin-list__items" aria-label="CPM campaigns">
            {list.map((campaign) => (
              <li key={campaign.id}>
                <CampaignCard campaign={campaign} />
              </li>
            ))}
          </ul>
          {campaigns.hasNextPage ? (
            <div className="clipit-admin-more">
              <Button
                variant="outline"
                loading={campaigns.isFetchingNextPage}
                loadingText="Loading..."
                onClick={() => void campaigns.fetchNextPage()}
              >
                Load more
              </Button>
            </div>
          ) : null}
        </div>
      );
  }

  return (
    <div className="clipit-admin-campaigns">
      {filter}
      {body}
    </div>
  );
}

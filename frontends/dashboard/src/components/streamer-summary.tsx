import { Badge, Card, CardContent, CardHeader, CardTitle, Skeleton } from '@clipit/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatCount } from '../lib/dashboard-data.js';
import type { FollowerCount, TaggedVideos } from '../lib/streamer-data.js';

function SummaryCard({ title, note, children }: { title: string; note: string; children: ReactNode }) {
  return (
    <li>
      <Card className="clipit-dash-stat">
        <CardHeader>
          <CardTitle level={3} className="clipit-dash-stat__title">
            {title}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <div className="clipit-dash-stat__value">{children}</div>
          <p className="clipit-dash-muted">{note}</p>
        </CardContent>
      </Card>
    </li>
  );
}

/** A count as it arrives: a skeleton while it loads, '–' (with the reason for screen readers) when it failed. */
function CountValue({ query, count }: { query: UseQueryResult<unknown>; count: () => string }) {
  if (query.isPending) {
    return (
      <>
        <Skeleton shape="text" className="clipit-dash-skeleton-count" />
        <span className="clip-sr-only">Loading</span>
      </>
    );
  }
  if (query.isError) {
    return (
      <span title={query.error.message}>
        –<span className="clip-sr-only"> Unavailable right now</span>
      </span>
    );
  }
  return <>{count()}</>;
}

/** The three summary cards (spec 02 §2.3): followers, tagged videos and the live status. */
export function StreamerSummary({
  followerCount,
  taggedVideos,
  isLive,
}: {
  followerCount: UseQueryResult<FollowerCount>;
  taggedVideos: UseQueryResult<TaggedVideos>;
  isLive: boolean;
}) {
  return (
    <section aria-labelledby="dash-summary-title">
      <h2 id="dash-summary-title" className="clip-sr-only">
        Your channel
      </h2>
      <ul className="clipit-dash-grid clipit-dash-grid--3 clipit-dash-summary">
        <SummaryCard title="Followers" note="People following you">
          <CountValue query={followerCount} count={() => formatCount(followerCount.data?.count ?? 0)} />
        </SummaryCard>
        <SummaryCard title="Tagged Videos" note="Clips tagged with you">
          <CountValue query={taggedVideos} count={() => formatCount(taggedVideos.data?.total ?? 0)} />
        </SummaryCard>
        <SummaryCard title="Live Status" note={isLive ? 'Your followers can see you are live' : 'Go live from the Streaming tab'}>
          {isLive ? (
            <Badge variant="live" className="clipit-dash-live-badge">
              Live
            </Badge>
          ) : (
            <Badge variant="secondary" className="clipit-dash-live-badge">
              Offline
            </Badge>
          )}
        </SummaryCard>
      </ul>
    </section>
  );
}

import { Link } from '@clipit/router';
import { Button } from '@clipit/ui';
import { formatCount } from '../lib/dashboard-data.js';
import type { FollowerPages } from '../lib/streamer-data.js';
import { Avatar, nameOf } from './dashboard-header.js';
import { ListError, ListSkeleton } from './tagged-videos-tab.js';

/**
 * The followers tab (spec 02 §2.3, §3): avatar, name, handle and a 'View Profile' link to /clipper/{id},
 * newest first, 50 at a time with 'Load more followers' until every one is shown.
 */
export function FollowersTab({ query }: { query: FollowerPages }) {
  if (query.isPending) return <ListSkeleton rows={3} className="clipit-dash-list" />;
  // A failed first page; a failed next page keeps the ones shown and says so under them.
  if (query.isLoadingError) return <ListError what="Followers" error={query.error} />;
  const { pages } = query.data;
  const followers = pages.flatMap((page) => page.followers);
  // The newest page's count: follows made while paging are counted, though they sit above the first page.
  const total = pages[pages.length - 1]!.total;
  if (followers.length === 0) {
    return (
      <div className="clipit-dash-empty">
        <h2 className="clipit-dash-subtitle">No followers yet</h2>
        <p className="clipit-dash-muted">People who follow you show up here.</p>
      </div>
    );
  }
  return (
    <section aria-labelledby="dash-followers-title">
      <h2 id="dash-followers-title" className="clipit-dash-subtitle">
        Followers
      </h2>
      <ul className="clipit-dash-list" aria-label="Followers">
        {followers.map((follower) => {
          const name = nameOf(follower, 'Someone');
          return (
            <li key={follower.id} className="clipit-dash-list__item clipit-dash-follower">
              <Avatar user={follower} size={48} />
              <div className="clipit-dash-list__main">
                <h3 className="clipit-dash-list__title">{name}</h3>
                {follower.twitterUsername ? <p className="clipit-dash-muted">@{follower.twitterUsername}</p> : null}
              </div>
              <Link
                to={`/clipper/${encodeURIComponent(follower.id)}`}
                className="clip-btn clip-btn--outline clip-btn--sm clipit-dash-follower__link"
                aria-label={`View Profile of ${name}`}
              >
                View Profile
              </Link>
            </li>
          );
        })}
      </ul>
      {query.hasNextPage ? (
        <div className="clipit-dash-more">
          <p className="clipit-dash-muted" role="status">
            Showing the newest {formatCount(followers.length)} of {formatCount(total)} followers.
          </p>
          <Button variant="outline" size="sm" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? 'Loading...' : 'Load more followers'}
          </Button>
          {query.isFetchNextPageError ? <p role="alert">Could not load more followers: {query.error?.message}</p> : null}
        </div>
      ) : null}
    </section>
  );
}

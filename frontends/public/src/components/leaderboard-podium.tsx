import { abbreviateNumber, Button, cn, Skeleton, VisuallyHidden } from '@clipit/ui';
import { leaderboardQueryOptions } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@clipit/router';
import { formatMindshare, TOP_COUNT, type LeaderboardUser } from '../lib/leaderboard-posts.js';
import { handleOf } from '../lib/people.js';
import { LeaderboardAvatar } from './leaderboard-avatar.js';

const RANKS = Array.from({ length: TOP_COUNT }, (_, i) => i + 1);

function Place({ entry, rank }: { entry: LeaderboardUser; rank: number }) {
  return (
    <li className={`clipit-leaderboard-place clipit-leaderboard-place--${rank}`}>
      <Link to={`/clipper/${entry.userId}`} className="clipit-leaderboard-place__link">
        <span className="clipit-leaderboard-place__rank">
          <VisuallyHidden>Rank </VisuallyHidden>#{rank}
        </span>
        <LeaderboardAvatar person={entry.user} size={64} className="clipit-leaderboard-place__avatar" />
        <span className="clipit-leaderboard-place__handle">{handleOf(entry.user) || 'Anonymous'}</span>
        <span className="clipit-leaderboard-place__figure">{abbreviateNumber(entry.totalViews)} views</span>
        <span className="clipit-leaderboard-place__figure clipit-leaderboard-place__share">
          {formatMindshare(entry.mindshare)} mindshare
        </span>
      </Link>
    </li>
  );
}

function PlaceSkeleton({ rank }: { rank: number }) {
  return (
    <li className={`clipit-leaderboard-place clipit-leaderboard-place--${rank}`} data-testid="podium-skeleton">
      <div className="clipit-leaderboard-place__link">
        <Skeleton shape="text" className="clipit-leaderboard-place__rank-skeleton" />
        <Skeleton shape="circle" className="clipit-leaderboard-place__avatar" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line clipit-leaderboard-skeleton-line--short" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line clipit-leaderboard-skeleton-line--short" />
      </div>
    </li>
  );
}

/**
 * TOP CREATORS (spec 01 §2): ranks 1-3 in the order the gateway gives (most views first), each linking to
 * the creator's profile. The box keeps one height in every state, so nothing below it moves.
 */
export function LeaderboardPodium() {
  const users = useQuery<LeaderboardUser[]>({ queryKey: ['/api/leaderboard/users'], ...leaderboardQueryOptions });
  let body;
  if (users.isPending) {
    body = (
      <div aria-busy="true">
        <VisuallyHidden role="status">Loading top creators</VisuallyHidden>
        <ol className="clipit-leaderboard-podium__places">
          {RANKS.map((rank) => (
            <PlaceSkeleton key={rank} rank={rank} />
          ))}
        </ol>
      </div>
    );
  } else if (users.isError) {
    body = (
      <div className="clipit-leaderboard-message" role="alert">
        <p>Failed to load creators. Please try again.</p>
        <Button variant="outline" size="sm" loading={users.isFetching} onClick={() => void users.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (users.data.length < TOP_COUNT) {
    body = <p className={cn('clipit-leaderboard-message', 'clipit-muted')}>Not enough creators yet. Be one of the first!</p>;
  } else {
    body = (
      <ol className="clipit-leaderboard-podium__places">
        {users.data.slice(0, TOP_COUNT).map((entry, i) => (
          <Place key={entry.userId} entry={entry} rank={i + 1} />
        ))}
      </ol>
    );
  }
  return (
    <section className="clip-card clipit-leaderboard-podium" aria-labelledby="leaderboard-creators-title">
      <h2 id="leaderboard-creators-title" className="clipit-leaderboard-card-title">
        TOP CREATORS
      </h2>
      {body}
    </section>
  );
}

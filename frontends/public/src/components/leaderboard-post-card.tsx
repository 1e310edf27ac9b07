import { abbreviateNumber, Badge, cn, Skeleton, VisuallyHidden } from '@clipit/ui';
import { Link } from '@clipit/router';
import { TOP_COUNT, type LeaderboardPost } from '../lib/leaderboard-posts.js';
import { displayNameOf } from '../lib/people.js';
import { LeaderboardAvatar } from './leaderboard-avatar.js';
import { LeaderboardPostPreview } from './leaderboard-post-preview.js';

const COUNTS: ReadonlyArray<[keyof Pick<LeaderboardPost, 'views' | 'likes' | 'retweets' | 'replies'>, string]> = [
  ['views', 'Views'],
  ['likes', 'Likes'],
  ['retweets', 'Retweets'],
  ['replies', 'Replies'],
];

/** One of the Top Viral Posts (spec 01 §2); `rank` counts from 1, and the first three are highlighted. */
export function LeaderboardPostCard({ post, rank }: { post: LeaderboardPost; rank: number }) {
  const top = rank <= TOP_COUNT;
  return (
    <li className={cn('clip-card', 'clipit-leaderboard-post', top && 'clipit-leaderboard-post--top')} data-testid="leaderboard-post">
      <LeaderboardPostPreview post={post} />
      <div className="clipit-leaderboard-post__body">
        <div className="clipit-leaderboard-post__badges">
          <Badge variant={top ? 'primary' : 'secondary'} className="clipit-leaderboard-post__rank">
            <VisuallyHidden>Rank </VisuallyHidden>#{rank}
          </Badge>
          <Badge variant="live">Live</Badge>
        </div>
        <Link to={`/clipper/${post.userId}`} className="clipit-leaderboard-author">
          <LeaderboardAvatar person={post.user} size={28} className="clipit-leaderboard-author__avatar" />
          <span>{displayNameOf(post.user) || `@${post.authorHandle}`}</span>
        </Link>
        <h3 className="clipit-leaderboard-post__title">
          <a href={post.url} target="_blank" rel="noopener noreferrer">
            {post.name}
            <VisuallyHidden> (new tab)</VisuallyHidden>
          </a>
        </h3>
        <dl className="clipit-leaderboard-counts">
          {COUNTS.map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{abbreviateNumber(post[key])}</dd>
            </div>
          ))}
        </dl>
      </div>
    </li>
  );
}

/** A loading stand-in with the card's boxes, so the cards take the same room when they arrive. */
export function LeaderboardPostSkeleton() {
  return (
    <li className="clip-card clipit-leaderboard-post" data-testid="leaderboard-post-skeleton">
      <Skeleton className="clipit-leaderboard-preview" />
      <div className="clipit-leaderboard-post__body">
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line clipit-leaderboard-skeleton-line--short" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line" />
        <Skeleton shape="text" className="clipit-leaderboard-skeleton-line clipit-leaderboard-skeleton-line--short" />
      </div>
    </li>
  );
}

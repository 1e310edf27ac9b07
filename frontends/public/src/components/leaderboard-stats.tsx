import { abbreviateNumber, Skeleton } from '@clipit/ui';
import { useQuery } from '@tanstack/react-query';
import type { LeaderboardStats as Stats } from '../lib/leaderboard-posts.js';

/** The competition bar is a fixed figure of the product (spec 01 §9), not a measurement. */
const COMPETITION_LEVEL = 85;

const FIGURES: ReadonlyArray<[keyof Stats, string]> = [
  ['totalPosts', 'Total Posts'],
  ['activeUsers', 'Active Users'],
  ['totalViews', 'Total Views'],
];

/**
 * The Leaderboard Stats card (spec 01 §2): figures from GET /api/leaderboard/stats (the default query
 * policy: the spec's leaderboard retries are for the posts and the users), and the competition bar.
 */
export function LeaderboardStats() {
  const stats = useQuery<Stats>({ queryKey: ['/api/leaderboard/stats'] });
  return (
    <section className="clip-card clipit-leaderboard-stats" aria-labelledby="leaderboard-stats-title">
      <h2 id="leaderboard-stats-title" className="clipit-leaderboard-card-title">
        Leaderboard Stats
      </h2>
      <dl className="clipit-leaderboard-stats__figures" aria-busy={stats.isPending || undefined}>
        {FIGURES.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>
              {stats.isPending ? (
                <Skeleton shape="text" className="clipit-leaderboard-stats__skeleton" />
              ) : stats.data ? (
                abbreviateNumber(stats.data[key])
              ) : (
                '—'
              )}
            </dd>
          </div>
        ))}
      </dl>
      {stats.isError ? (
        <p className="clipit-leaderboard-stats__error" role="alert">
          Failed to load stats. Please try again later.
        </p>
      ) : null}
      <div className="clipit-leaderboard-competition">
        <span id="leaderboard-competition-label">
          Competition Level: <strong>High</strong>
        </span>
        <div
          className="clipit-leaderboard-competition__bar"
          role="progressbar"
          aria-labelledby="leaderboard-competition-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={COMPETITION_LEVEL}
        >
          <span style={{ width: `${COMPETITION_LEVEL}%` }} />
        </div>
      </div>
    </section>
  );
}

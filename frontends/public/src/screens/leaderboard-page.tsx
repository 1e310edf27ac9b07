import { Button, VisuallyHidden } from '@clipit/ui';
import { leaderboardQueryOptions } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from '@clipit/router';
import { LeaderboardPodium } from '../components/leaderboard-podium.js';
import { LeaderboardPostCard, LeaderboardPostSkeleton } from '../components/leaderboard-post-card.js';
import { LeaderboardStats } from '../components/leaderboard-stats.js';
import { rankPosts, type LeaderboardPost } from '../lib/leaderboard-posts.js';
import { useProgressiveCount } from '../lib/progressive.js';
import '../styles/public.css';
import '../styles/leaderboard.css';

/** Spec 01 §9: the list shows 6 skeleton cards while it loads. */
const SKELETONS = 6;
const SUBMIT = 'clip-btn clip-btn--primary clip-btn--lg';

function TopViralPosts() {
  const posts = useQuery<LeaderboardPost[]>({ queryKey: ['/api/leaderboard/posts'], ...leaderboardQueryOptions });
  const ranked = useMemo(() => rankPosts(posts.data ?? []), [posts.data]);
  const rendered = useProgressiveCount(ranked.length);
  let body;
  if (posts.isPending) {
    body = (
      <div aria-busy="true">
        <VisuallyHidden role="status">Loading posts</VisuallyHidden>
        <ol className="clipit-leaderboard-posts">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <LeaderboardPostSkeleton key={i} />
          ))}
        </ol>
      </div>
    );
  } else if (posts.isError) {
    body = (
      <div className="clip-card clipit-leaderboard-empty" role="alert">
        <p>Failed to load posts. Please try again.</p>
        <Button variant="outline" loading={posts.isFetching} onClick={() => void posts.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else if (ranked.length === 0) {
    body = (
      <div className="clip-card clipit-leaderboard-empty">
        <h3>No posts yet!</h3>
        <p className="clipit-muted">Be the first to submit a viral Twitter post and claim the top spot.</p>
        <Link to="/submit" className={SUBMIT}>
          Submit Your Post
        </Link>
      </div>
    );
  } else {
    body = (
      <ol className="clipit-leaderboard-posts">
        {ranked.slice(0, rendered).map((post, i) => (
          <LeaderboardPostCard key={post.id} post={post} rank={i + 1} />
        ))}
      </ol>
    );
  }
  return (
    <section className="clipit-leaderboard-section" aria-labelledby="leaderboard-posts-title">
      <h2 id="leaderboard-posts-title">Top Viral Posts</h2>
      {body}
    </section>
  );
}

/** /leaderboard: the X Leaderboard (spec 01 §2): top creators, the stats, and the most viewed posts. */
export default function LeaderboardPage() {
  return (
    <div className="clipit-page clipit-leaderboard">
      <header className="clipit-leaderboard-hero">
        <div>
          <h1>X Leaderboard</h1>
          <p className="clipit-muted">The most viewed CLIP IT posts on X, and the creators behind them.</p>
        </div>
        <Link to="/submit" className={SUBMIT}>
          Submit Your Post
        </Link>
      </header>
      <div className="clipit-leaderboard-top">
        <LeaderboardPodium />
        <LeaderboardStats />
      </div>
      <TopViralPosts />
    </div>
  );
}

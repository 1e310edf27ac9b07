import { ratingSummary } from '@clipit/field-rules';
import { abbreviateNumber, Button, Skeleton, VisuallyHidden } from '@clipit/ui';
import { apiJson, HttpError, useCurrentUser, type ApiAnswer } from '@clipit/web-api';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, type ReactNode } from 'react';
import { Link, useParams } from '@clipit/router';
import { FollowButton } from '../components/follow-button.js';
import { HireClipperButton } from '../components/hire-button.js';
import { isGoldClipper } from '../lib/gold-tier.js';
import { fetchHiringProfile, hiringProfileKey } from '../lib/hiring-profile.js';
import { displayNameOf, handleOf, initialOf } from '../lib/people.js';
import '../styles/public.css';
import '../styles/profile.css';

type Profile = ApiAnswer<'/api/clipper/{userId}', 'get'>;
type ProfileClip = Profile['submissions'][number];

/** '0:07', '1:05': a clip's length in whole seconds (rounded, so a 2.96 s clip reads 0:03). */
export function durationLabel(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

const STATS = [
  ['Total Clips', (s: Profile['stats']) => s.totalClips],
  ['Approved', (s: Profile['stats']) => s.approvedClips],
  ['Total Views', (s: Profile['stats']) => s.totalViews],
  ['Total Likes', (s: Profile['stats']) => s.totalLikes],
  ['Avg Views', (s: Profile['stats']) => s.avgViews],
] as const;

/** A gold clipper's rating from their hires (ADR 0040): the average and the number of reviews, beside Hire Clipper. */
function HireRating({ clipperId }: { clipperId: string }) {
  const hiring = useQuery({ queryKey: hiringProfileKey(clipperId), queryFn: () => fetchHiringProfile(clipperId) });
  if (!hiring.data) return null;
  return (
    <p className="clipit-profile-rating">
      Rating <strong>{ratingSummary(hiring.data.averageRating, hiring.data.totalReviews)}</strong>
    </p>
  );
}

/** The owner's view history of a clip: its own chunk, downloaded only when the owner looks at their profile. */
const ViewHistory = lazy(() => import('../components/view-history.js'));

/** The number of video cards the loading skeleton draws (one row on a desktop). */
const SKELETON_VIDEOS = 4;

/** `own`: the signed-in clipper is looking at their own profile, so the clip's view history is shown. */
function ClipCard({ clip, own }: { clip: ProfileClip; own: boolean }) {
  const titleId = useId();
  return (
    <li className="clipit-profile-clip">
      <div className="clipit-profile-clip__media">
        {clip.videoUrl ? (
          <video
            className="clipit-profile-clip__video"
            src={clip.videoUrl}
            poster={clip.videoThumbnailUrl ?? undefined}
            preload="none"
            controls
            playsInline
            width={360}
            height={640}
            aria-labelledby={titleId}
          />
        ) : (
          <div className="clipit-profile-clip__video clipit-profile-clip__novideo">Video unavailable</div>
        )}
        {clip.videoDuration !== null ? (
          <span className="clipit-profile-clip__duration">
            <VisuallyHidden>Duration </VisuallyHidden>
            {durationLabel(clip.videoDuration)}
          </span>
        ) : null}
      </div>
      <div className="clipit-profile-clip__body">
        <h3 id={titleId} className="clipit-profile-clip__title">
          {clip.name}
        </h3>
        <p className="clipit-profile-clip__counts">
          <span>{abbreviateNumber(clip.views)} views</span>
          <span>{abbreviateNumber(clip.likes)} likes</span>
          <span>{abbreviateNumber(clip.retweets)} retweets</span>
        </p>
        {own ? (
          <Suspense fallback={<Skeleton className="clipit-profile-clip__history" />}>
            <ViewHistory submissionId={clip.id} />
          </Suspense>
        ) : null}
        <a className="clipit-profile-clip__link" href={clip.url} target="_blank" rel="noopener noreferrer" aria-describedby={titleId}>
          View on Twitter
        </a>
      </div>
    </li>
  );
}

function ProfileSkeleton() {
  return (
    <div className="clipit-profile" aria-busy="true" data-testid="profile-skeleton">
      <VisuallyHidden role="status">Loading profile</VisuallyHidden>
      <div className="clipit-profile-banner">
        <Skeleton className="clipit-profile-banner__fill" />
      </div>
      <div className="clipit-profile-head">
        <Skeleton shape="circle" className="clipit-profile-avatar" />
        <div className="clipit-profile-who">
          <Skeleton shape="text" className="clipit-profile-skeleton-name" />
          <Skeleton shape="text" className="clipit-profile-skeleton-handle" />
        </div>
      </div>
      <dl className="clipit-profile-stats">
        {STATS.map(([label]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <Skeleton shape="text" className="clipit-profile-skeleton-value" />
            </dd>
          </div>
        ))}
      </dl>
      <section className="clipit-profile-videos">
        <h2>Approved Videos</h2>
        <ul className="clipit-profile-grid" aria-hidden="true">
          {Array.from({ length: SKELETON_VIDEOS }, (_, i) => (
            <li key={i} className="clipit-profile-clip">
              <Skeleton className="clipit-profile-clip__ratio" />
              <div className="clipit-profile-clip__body">
                <Skeleton shape="text" className="clipit-profile-skeleton-title" />
                <Skeleton shape="text" className="clipit-profile-skeleton-counts" />
                <Skeleton shape="text" className="clipit-profile-skeleton-link" />
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function NotFound() {
  return (
    <div className="clipit-profile-message">
      <h1>Clipper not found</h1>
      <p className="clipit-muted">This profile does not exist or is no longer available.</p>
      <Link to="/discover" className="clip-btn clip-btn--primary clip-btn--md">
        Back to Discover
      </Link>
    </div>
  );
}

const Page = ({ children }: { children: ReactNode }) => <div className="clipit-page clipit-profile-page">{children}</div>;

/**
 * /clipper/:userId: a clipper's or a streamer's public profile and approved videos (spec 01 §2, §3);
 * 'Hire Clipper' on a gold clipper's (spec 02 §2.7).
 */
export default function ClipperProfilePage() {
  const { userId = '' } = useParams();
  const { user: me } = useCurrentUser();
  const query = useInfiniteQuery({
    queryKey: ['/api/clipper', userId],
    // The answer is cursor-paged (24 clips a page): the pages are joined under one key, the API path.
    queryFn: ({ pageParam }) =>
      apiJson<Profile>('GET', `/api/clipper/${encodeURIComponent(userId)}${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

  if (query.isPending)
    return (
      <Page>
        <ProfileSkeleton />
      </Page>
    );
  if (query.isError) {
    if (query.error instanceof HttpError && query.error.status === 404)
      return (
        <Page>
          <NotFound />
        </Page>
      );
    return (
      <Page>
        <div className="clipit-profile-message" role="alert">
          <h1>Failed to load this profile</h1>
          <p className="clipit-muted">{query.error.message}</p>
          <Button variant="outline" loading={query.isFetching} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </div>
      </Page>
    );
  }

  const [first] = query.data.pages;
  const { user, stats } = first!;
  const name = displayNameOf(user) || 'Anonymous';
  const handle = handleOf(user);
  const isStreamer = user.role === 'streamer';
  const own = me?.id === user.id;
  // The gateway sends approved clips only; the filter keeps that promise on screen whatever it sends.
  const clips = query.data.pages.flatMap((page) => page.submissions).filter((clip) => clip.status === 'approved');

  return (
    <Page>
      <article className="clipit-profile" aria-labelledby="clipit-profile-name">
        <div className="clipit-profile-banner">
          {user.bannerImageUrl ? (
            <img className="clipit-profile-banner__fill" src={user.bannerImageUrl} alt="" width={1152} height={220} decoding="async" />
          ) : (
            <div className="clipit-profile-banner__fill clipit-profile-banner--gradient" />
          )}
        </div>
        <div className="clipit-profile-head">
          {user.profileImageUrl ? (
            <img className="clipit-profile-avatar" src={user.profileImageUrl} alt="" width={96} height={96} decoding="async" />
          ) : (
            <span className="clipit-profile-avatar" aria-hidden="true">
              {initialOf(user)}
            </span>
          )}
          <div className="clipit-profile-who">
            <h1 id="clipit-profile-name">{name}</h1>
            {handle ? <p className="clipit-muted">{handle}</p> : null}
          </div>
          {isStreamer ? (
            <div className="clipit-profile-follow">
              <p>
                <strong>{abbreviateNumber(stats.followerCount)}</strong> {stats.followerCount === 1 ? 'follower' : 'followers'}
              </p>
              <FollowButton userId={user.id} size="md" />
            </div>
          ) : null}
          {isGoldClipper(user) ? (
            <div className="clipit-profile-follow">
              <HireRating clipperId={user.id} />
              <HireClipperButton clipperId={user.id} size="md" />
            </div>
          ) : null}
        </div>
        <dl className="clipit-profile-stats">
          {STATS.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{abbreviateNumber(value(stats))}</dd>
            </div>
          ))}
        </dl>
        <section className="clipit-profile-videos" aria-labelledby="clipit-profile-videos">
          <h2 id="clipit-profile-videos">Approved Videos</h2>
          {clips.length === 0 ? (
            <p className="clipit-profile-none clipit-muted">No approved videos yet</p>
          ) : (
            <ul className="clipit-profile-grid">
              {clips.map((clip) => (
                <ClipCard key={clip.id} clip={clip} own={own} />
              ))}
            </ul>
          )}
          {query.hasNextPage ? (
            <Button
              variant="outline"
              className="clipit-profile-more"
              loading={query.isFetchingNextPage}
              loadingText="Loading..."
              onClick={() => void query.fetchNextPage()}
            >
              Load More
            </Button>
          ) : null}
        </section>
      </article>
    </Page>
  );
}

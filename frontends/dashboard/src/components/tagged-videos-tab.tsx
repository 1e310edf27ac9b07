import { Badge, Button, Skeleton } from '@clipit/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatCount } from '../lib/dashboard-data.js';
import { taggedVideosPagesKey, taggedVideosPath, useCursorPages, type TaggedVideo, type TaggedVideos } from '../lib/streamer-data.js';

/** 'approved' → 'Approved'. */
const statusLabel = (status: string) => (status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown');

/** A tab's list while it loads: cards the size of the real ones. */
export function ListSkeleton({ rows, className }: { rows: number; className: string }) {
  return (
    <div aria-busy="true">
      <p role="status" className="clip-sr-only">
        Loading...
      </p>
      <div className={className}>
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="clipit-dash-skeleton-row" />
        ))}
      </div>
    </div>
  );
}

export function ListError({ what, error }: { what: string; error: Error }) {
  return (
    <p role="alert" className="clipit-dash-note clipit-dash-note--error">
      {what} are unavailable right now. Error: {error.message}
    </p>
  );
}

function VideoCard({ video }: { video: TaggedVideo }) {
  // Spec 02 §4: approved is highlighted, every other status secondary.
  const approved = video.status === 'approved';
  return (
    <li className="clipit-dash-video">
      <div className="clipit-dash-video__poster">
        {video.videoThumbnailUrl ? (
          <img src={video.videoThumbnailUrl} alt="" width={360} height={640} loading="lazy" decoding="async" />
        ) : (
          <span className="clipit-dash-video__no-poster" aria-hidden="true">
            No preview
          </span>
        )}
        <Badge variant={approved ? 'success' : 'secondary'} className="clipit-dash-video__status">
          {statusLabel(video.status)}
        </Badge>
      </div>
      <div className="clipit-dash-video__body">
        <h3 className="clipit-dash-list__title">{video.name}</h3>
        <p className="clipit-dash-muted">
          <span>{formatCount(video.views)} views</span> · <span>{formatCount(video.likes)} likes</span>
        </p>
      </div>
    </li>
  );
}

/** The tagged-videos tab (spec 02 §2.3, §3): the clips tagged with the streamer, every status (the streamer asks), page by page. */
export function TaggedVideosTab({ userId, query }: { userId: string; query: UseQueryResult<TaggedVideos> }) {
  // Every page, the first one the screen already read (the summary card's total comes with it).
  const pages = useCursorPages<TaggedVideos>(taggedVideosPagesKey(userId), taggedVideosPath(userId), query);
  if (query.isPending) return <ListSkeleton rows={3} className="clipit-dash-videos" />;
  if (query.isError) return <ListError what="Tagged videos" error={query.error} />;
  const loaded = pages.data?.pages ?? [query.data];
  const videos = loaded.flatMap((page) => page.videos);
  const total = loaded.at(-1)!.total;
  if (videos.length === 0) {
    return (
      <div className="clipit-dash-empty">
        <h2 className="clipit-dash-subtitle">No tagged videos yet</h2>
        <p className="clipit-dash-muted">Clips that clippers tag with you show up here.</p>
      </div>
    );
  }
  return (
    <section aria-labelledby="dash-tagged-title">
      <h2 id="dash-tagged-title" className="clipit-dash-subtitle">
        Tagged Videos
      </h2>
      <p className="clipit-dash-muted" aria-live="polite">
        Showing {formatCount(videos.length)} of {formatCount(total)}
      </p>
      <ul className="clipit-dash-videos" aria-label="Tagged videos">
        {videos.map((video) => (
          <VideoCard key={video.id} video={video} />
        ))}
      </ul>
      {pages.isFetchNextPageError ? (
        <p role="alert" className="clipit-dash-note clipit-dash-note--error">
          More tagged videos are unavailable right now. Error: {pages.error?.message}
        </p>
      ) : null}
      {pages.hasNextPage ? (
        <Button variant="outline" size="sm" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? 'Loading...' : 'Load more videos'}
        </Button>
      ) : null}
    </section>
  );
}

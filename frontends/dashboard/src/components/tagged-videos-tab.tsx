import { Badge, Skeleton } from '@clipit/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatCount } from '../lib/dashboard-data.js';
import type { TaggedVideo, TaggedVideos } from '../lib/streamer-data.js';

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

/** The tagged-videos tab (spec 02 §2.3, §3): the clips tagged with the streamer, every status (the streamer asks). */
export function TaggedVideosTab({ query }: { query: UseQueryResult<TaggedVideos> }) {
  if (query.isPending) return <ListSkeleton rows={3} className="clipit-dash-videos" />;
  if (query.isError) return <ListError what="Tagged videos" error={query.error} />;
  const { videos } = query.data;
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
      <ul className="clipit-dash-videos" aria-label="Tagged videos">
        {videos.map((video) => (
          <VideoCard key={video.id} video={video} />
        ))}
      </ul>
    </section>
  );
}

import { Badge, useNearViewport, VisuallyHidden } from '@clipit/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { embedThumbnail, oembedKey, previewKind, type LeaderboardPost } from '../lib/leaderboard-posts.js';

const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * An uploaded video, click to play: until then a lazy thumbnail stands in, so a long list downloads
 * neither videos nor posters it does not show.
 */
function VideoPreview({ post }: { post: LeaderboardPost }) {
  const [playing, setPlaying] = useState(false);
  const player = useRef<HTMLVideoElement>(null);
  // The play button is gone once pressed: keyboard focus moves to the player that took its place.
  useEffect(() => {
    if (playing) player.current?.focus();
  }, [playing]);
  return (
    <>
      {playing ? (
        // Started by the click that rendered it, so playing with sound is the visitor's choice.
        <video
          ref={player}
          className="clipit-leaderboard-preview__media"
          src={post.videoUrl ?? undefined}
          poster={post.videoThumbnailUrl ?? undefined}
          preload="none"
          controls
          autoPlay
          playsInline
          aria-label={post.name}
        />
      ) : (
        <button
          type="button"
          className="clipit-leaderboard-preview__play"
          onClick={() => setPlaying(true)}
          aria-label={`Play ${post.name}`}
        >
          {post.videoThumbnailUrl ? (
            <img
              className="clipit-leaderboard-preview__media"
              src={post.videoThumbnailUrl}
              alt=""
              width={90}
              height={160}
              loading="lazy"
              decoding="async"
            />
          ) : null}
          <span className="clipit-leaderboard-preview__play-icon" aria-hidden="true" />
        </button>
      )}
      <Badge variant="primary" className="clipit-leaderboard-preview__hd">
        HD
      </Badge>
      <a className="clipit-leaderboard-preview__external" href={post.url} {...NEW_TAB} aria-label={`Open ${post.name} on X (new tab)`}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"
          />
        </svg>
      </a>
    </>
  );
}

/**
 * A post without a video: the thumbnail of its X embed (GET /api/twitter/oembed, asked once the card is
 * near the screen, never retried; a failure only means no thumbnail), else the upload-failed note or a
 * link to X.
 */
function EmbedPreview({ post, near }: { post: LeaderboardPost; near: boolean }) {
  const embed = useQuery<unknown, Error, string | null>({
    queryKey: oembedKey(post.url),
    enabled: near,
    retry: false,
    select: embedThumbnail,
  });
  const kind = previewKind(post, embed.data);
  if (kind === 'thumbnail') {
    return (
      <a className="clipit-leaderboard-preview__link" href={post.url} {...NEW_TAB}>
        <img
          className="clipit-leaderboard-preview__media"
          src={embed.data ?? undefined}
          alt={`${post.name} on X`}
          width={90}
          height={160}
          loading="lazy"
          decoding="async"
        />
        <VisuallyHidden> (new tab)</VisuallyHidden>
      </a>
    );
  }
  if (kind === 'upload-failed') {
    return (
      <div className="clipit-leaderboard-preview__note">
        <strong>Video upload failed</strong>
        <span>Please re-upload</span>
      </div>
    );
  }
  return (
    <a className="clipit-leaderboard-preview__link clipit-leaderboard-preview__note" href={post.url} {...NEW_TAB}>
      <svg className="clipit-leaderboard-preview__x" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
        <path
          fill="currentColor"
          d="M18.2 2.3h3.3l-7.2 8.2 8.5 11.2h-6.6l-5.2-6.8-6 6.8H1.7l7.7-8.8L1.3 2.3h6.8l4.7 6.2zm-1.2 17.5h1.8L7.1 4.1H5.1z"
        />
      </svg>
      <span>View on X</span>
      <VisuallyHidden> (new tab)</VisuallyHidden>
    </a>
  );
}

/** The preview box of a leaderboard post (spec 01 §2): one size whatever it shows. */
export function LeaderboardPostPreview({ post }: { post: LeaderboardPost }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box, '300px');
  return (
    <div ref={box} className="clipit-leaderboard-preview">
      {post.videoUrl ? <VideoPreview post={post} /> : <EmbedPreview post={post} near={near} />}
    </div>
  );
}

import { abbreviateNumber, cn, useToast, VisuallyHidden } from '@clipit/ui';
import { apiJson, useCurrentUser } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { useNavigate } from '@clipit/router';
import { applyLikeState, type FeedClip, type LikeState } from '../lib/feed-data.js';

function HeartIcon() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path d="M12 21s-7.5-4.6-9.5-9.2C1.1 8.4 3.2 4.5 7 4.5c2.1 0 3.6 1.1 5 2.9 1.4-1.8 2.9-2.9 5-2.9 3.8 0 5.9 3.9 4.5 7.3C19.5 16.4 12 21 12 21z" />
    </svg>
  );
}

/**
 * Like / unlike a clip (spec 01 §2, §4, §8): the count and the pressed state are the server's answer.
 * Liking needs a session: a visitor (the current-user call failed) is asked to sign in, with a link to
 * /login, rather than shown the gateway's 401.
 */
export function FeedLikeButton({ clip }: { clip: Pick<FeedClip, 'id' | 'likeCount' | 'likedByCurrentUser'> }) {
  const { user, isPending: userPending } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const liked = Boolean(user) && clip.likedByCurrentUser;

  const change = useMutation({
    mutationFn: (like: boolean) => apiJson<LikeState>(like ? 'POST' : 'DELETE', `/api/feed/clips/${clip.id}/like`),
    onSuccess: (state) => applyLikeState(queryClient, clip.id, state),
    onError: (err: Error, like) =>
      toast({ title: like ? 'Failed to like video' : 'Failed to unlike video', description: err.message, variant: 'destructive' }),
  });

  const askToSignIn = () => {
    // Toasts live outside a full-screen feed: leave full screen so the prompt is seen.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    // The toast is drawn by the shell, outside the router: a plain link that navigates in the app.
    const handle = toast({
      title: 'Sign in to like clips',
      description: 'Log in or create an account to like clips.',
      action: (
        <a
          href="/login"
          className="clip-btn clip-btn--primary clip-btn--sm"
          onClick={(event: MouseEvent) => {
            event.preventDefault();
            handle.dismiss();
            void navigate('/login');
          }}
        >
          Log in
        </a>
      ),
    });
  };

  return (
    <div className="clipit-feed-action">
      <button
        type="button"
        className={cn('clipit-feed-action__button', liked && 'clipit-feed-action__button--on')}
        aria-label="Like"
        aria-pressed={liked}
        disabled={userPending || change.isPending}
        onClick={() => (user ? change.mutate(!liked) : askToSignIn())}
      >
        <HeartIcon />
      </button>
      <span className="clipit-feed-action__count" data-testid="like-count">
        {abbreviateNumber(clip.likeCount)}
        <VisuallyHidden>{clip.likeCount === 1 ? ' like' : ' likes'}</VisuallyHidden>
      </span>
    </div>
  );
}

import { Button, useToast, type ButtonSize } from '@clipit/ui';
import { apiJson, useCurrentUser, type ApiAnswer } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from '@clipit/router';

type FollowState = ApiAnswer<'/api/following/{userId}', 'get'>;
type FollowChange = ApiAnswer<'/api/follow/{userId}', 'post'>;
type Creators = ApiAnswer<'/api/creators/{tab}', 'get'>;
type Profile = ApiAnswer<'/api/clipper/{userId}', 'get'>;

/** The query of whether the viewer follows `userId` (GET /api/following/{userId}). */
export const followingKey = (userId: string) => ['/api/following', userId] as const;

/**
 * Puts the follower count the follow call answered (the social service's own figure) into the lists and
 * the profile that show it, then marks them stale without refetching: the feed's read models hear of the
 * follow a moment later, so a refetch right now could still answer the old count and undo the change on
 * screen. They are read again on the next visit.
 */
function applyFollowerCount(queryClient: QueryClient, userId: string, followerCount: number) {
  queryClient.setQueriesData<Creators>({ queryKey: ['/api/creators'] }, (list) =>
    list?.map((creator) => (creator.userId === userId ? { ...creator, followers: followerCount } : creator)),
  );
  queryClient.setQueryData<InfiniteData<Profile>>(['/api/clipper', userId], (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, stats: { ...page.stats, followerCount } })) } : data,
  );
  void queryClient.invalidateQueries({ queryKey: ['/api/creators'], refetchType: 'none' });
  void queryClient.invalidateQueries({ queryKey: ['/api/clipper', userId], refetchType: 'none' });
}

export interface FollowButtonProps {
  /** The streamer to follow. */
  userId: string;
  size?: ButtonSize;
  block?: boolean;
  className?: string;
}

/**
 * Follow / Following for a streamer (spec 01 §2, §4, §8). A signed-out visitor is sent to /login (following
 * needs a session); nothing is shown on the viewer's own profile.
 */
export function FollowButton({ userId, size = 'sm', block, className }: FollowButtonProps) {
  const { user, isPending: userPending } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const own = user?.id === userId;
  const state = useQuery<FollowState>({ queryKey: followingKey(userId), enabled: Boolean(user) && !own });
  const isFollowing = Boolean(user && state.data?.isFollowing);

  const change = useMutation({
    mutationFn: (follow: boolean) => apiJson<FollowChange>('POST', `/api/${follow ? 'follow' : 'unfollow'}/${userId}`),
    onSuccess: (answer, follow) => {
      queryClient.setQueryData<FollowState>(followingKey(userId), { isFollowing: answer.isFollowing });
      void queryClient.invalidateQueries({ queryKey: followingKey(userId) });
      applyFollowerCount(queryClient, userId, answer.followerCount);
      toast({ title: follow ? 'Following!' : 'Unfollowed', variant: 'success' });
    },
    onError: (err: Error, follow) =>
      toast({ title: follow ? 'Failed to follow' : 'Failed to unfollow', description: err.message, variant: 'destructive' }),
  });

  if (own) return null;

  const onClick = () => {
    if (!user) {
      void navigate('/login');
      return;
    }
    change.mutate(!isFollowing);
  };
  return (
    <Button
      variant={isFollowing ? 'outline' : 'primary'}
      size={size}
      block={block}
      className={className}
      disabled={userPending || change.isPending || (Boolean(user) && state.isPending)}
      onClick={onClick}
    >
      {isFollowing ? 'Following' : 'Follow'}
    </Button>
  );
}

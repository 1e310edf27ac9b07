import { Button, useToast } from '@clipit/ui';
import { apiRequest, currentUserKey, type CurrentUser } from '@clipit/web-api';
import { useNavigate } from '@clipit/router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LOGIN_PAGE } from '../lib/navigation.js';
import { Avatar, nameOf } from './dashboard-header.js';

/**
 * The streamer dashboard's header (spec 02 §2.3): avatar, display name, @handle and Logout, which ends the
 * session (POST /api/logout) and then goes to /login; a failure says 'Logout failed' (§8).
 */
export function StreamerHeader({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: () => apiRequest('POST', '/api/logout'),
    onSuccess: () => {
      // Signed out everywhere on the page (the frame reads the same user), then the login page.
      queryClient.setQueryData(currentUserKey, null);
      navigate(LOGIN_PAGE);
    },
    onError: (error: Error) => toast({ title: 'Logout failed', description: error.message, variant: 'destructive' }),
  });
  const name = nameOf(user, 'Streamer');
  return (
    <section
      aria-labelledby="dashboard-title"
      className="clipit-dash-welcome"
      style={
        user.bannerImageUrl
          ? {
              backgroundImage: `linear-gradient(var(--clipit-dash-banner-veil), var(--clipit-dash-banner-veil)), url("${encodeURI(user.bannerImageUrl)}")`,
            }
          : undefined
      }
    >
      <Avatar user={user} />
      <div className="clipit-dash-welcome__text">
        <h1 id="dashboard-title">{name}</h1>
        {user.twitterUsername ? <p className="clipit-dash-muted">@{user.twitterUsername}</p> : null}
        <p className="clipit-dash-muted">Streamer Dashboard</p>
      </div>
      <Button variant="outline" className="clipit-dash-welcome__logout" disabled={logout.isPending} onClick={() => logout.mutate()}>
        {logout.isPending ? 'Logging out...' : 'Logout'}
      </Button>
    </section>
  );
}

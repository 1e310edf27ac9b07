import { describe, expect, it } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ToastProvider } from '@clipit/ui';
import { createQueryClient, type ApiAnswer } from '@clipit/web-api';
import { fakeGateway, type Handler } from '@clipit/web-testing';
import { QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from '@clipit/router';
import { FollowButton } from './follow-button.js';

type Creators = ApiAnswer<'/api/creators/{tab}', 'get'>;
type Profile = ApiAnswer<'/api/clipper/{userId}', 'get'>;

const ME = { id: 'viewer-1', twitterUsername: 'viewer', role: 'clipper' };
const STREAMERS: Creators = [
  {
    userId: 's-1',
    twitterUsername: 'BigStreamer',
    profileImageUrl: null,
    verified: true,
    followers: 41,
    totalClips: 3,
    totalViews: 300,
    avgViews: 100,
  },
];

/** A gateway with a signed-in viewer (unless `signedIn` is false) who follows s-1 or not; `write` answers the POSTs instead, `hold` delays them. */
function gatewayWith({
  signedIn = true,
  following = false,
  write,
  hold,
}: { signedIn?: boolean; following?: boolean; write?: Handler; hold?: Promise<void> } = {}): Handler {
  let isFollowing = following;
  return async (call) => {
    if (call.url === '/api/user/me') return signedIn ? { json: ME } : { status: 401, text: 'Not signed in' };
    if (call.url === '/api/following/s-1') return { json: { isFollowing } };
    if (call.method !== 'POST') return { status: 404, text: 'No such route' };
    if (write) return write(call);
    await hold;
    isFollowing = call.url.startsWith('/api/follow/');
    return { json: { isFollowing, followerCount: isFollowing ? 42 : 40 } };
  };
}

function setup(handler: Handler, userId = 's-1') {
  const gateway = fakeGateway(handler);
  const queryClient = createQueryClient();
  // What the discover page and the profile hold: the button keeps their follower counts right.
  queryClient.setQueryData<Creators>(['/api/creators', 'streamers'], STREAMERS);
  const profile = {
    user: { id: 's-1', role: 'streamer' },
    stats: { followerCount: 41 },
    submissions: [],
    nextCursor: null,
  } as unknown as Profile;
  queryClient.setQueryData<InfiniteData<Profile>>(['/api/clipper', 's-1'], { pages: [profile], pageParams: [null] });
  // The button's page and /login, where a signed-out visitor is sent.
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/discover']}>
          <Routes>
            <Route path="/discover" element={<FollowButton userId={userId} />} />
            <Route path="/login" element={<p>login page</p>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { gateway, queryClient, user: userEvent.setup() };
}

const followers = (queryClient: ReturnType<typeof createQueryClient>) => ({
  discover: queryClient.getQueryData<Creators>(['/api/creators', 'streamers'])?.[0]?.followers,
  profile: queryClient.getQueryData<InfiniteData<Profile>>(['/api/clipper', 's-1'])?.pages[0]?.stats.followerCount,
});

describe('FollowButton', () => {
  it('sends a signed-out visitor to /login without calling follow', async () => {
    const { gateway, user } = setup(gatewayWith({ signedIn: false }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('login page')).toBeVisible();
    expect(gateway.writes()).toEqual([]);
    expect(gateway.calls.map((c) => c.url)).not.toContain('/api/following/s-1');
  });

  it('follows: disabled while pending, then Following, a toast, and the follower counts the answer gave', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { gateway, queryClient, user } = setup(gatewayWith({ hold: held }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByRole('button', { name: 'Follow' })).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Following' })).toBeEnabled();
    expect(within(screen.getByRole('region', { name: /Notifications/ })).getByText('Following!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/follow/s-1', body: undefined }]);
    expect(followers(queryClient)).toEqual({ discover: 42, profile: 42 });
    // Marked stale, so the next visit reads the lists again.
    expect(queryClient.getQueryState(['/api/creators', 'streamers'])?.isInvalidated).toBe(true);
  });

  it('unfollows a streamer the viewer follows', async () => {
    const { gateway, queryClient, user } = setup(gatewayWith({ following: true }));
    await user.click(await screen.findByRole('button', { name: 'Following' }));
    expect(await screen.findByText('Unfollowed')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/unfollow/s-1', body: undefined }]);
    expect(followers(queryClient)).toEqual({ discover: 40, profile: 40 });
  });

  it('toasts Failed to follow / Failed to unfollow with the server’s message and keeps the state', async () => {
    const refuse: Handler = () => ({ status: 400, text: 'Only streamers can be followed' });
    const { user } = setup(gatewayWith({ write: refuse }));
    await user.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('Failed to follow')).toBeVisible();
    expect(screen.getByText('400: Only streamers can be followed')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled();
  });

  it('toasts Failed to unfollow with the server’s message', async () => {
    const { user } = setup(gatewayWith({ following: true, write: () => ({ status: 503, text: 'Service temporarily unavailable' }) }));
    await user.click(await screen.findByRole('button', { name: 'Following' }));
    expect(await screen.findByText('Failed to unfollow')).toBeVisible();
    expect(screen.getByText('503: Service temporarily unavailable')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Following' })).toBeEnabled();
  });

  it('is not shown on the viewer’s own profile', async () => {
    const { gateway } = setup(gatewayWith(), ME.id);
    // Disabled until it is known who is looking, then gone.
    expect(screen.getByRole('button', { name: 'Follow' })).toBeDisabled();
    await waitFor(() => expect(screen.queryByRole('button')).toBeNull());
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/user/me']);
  });
});

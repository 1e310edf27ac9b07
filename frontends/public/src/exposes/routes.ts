import type { RemoteRoute } from '@clipit/frontend-contracts';

/**
 * The pages of the public area (spec 01: home, feed, discover, leaderboard, clipper profiles, login, submit, …), mounted by the shell inside its frame.
 * A page is added as `{ path, title, description, lazy: () => import('../screens/<screen>.js') }` (see frontends/README.md),
 * with `reads`: the API calls its screen makes first, fetched with the page's HTML (routes.spec.tsx checks them).
 */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/',
    title: 'CLIP IT: Clip, Share, Earn',
    description: 'CLIP IT: clippers cut branded clips from live streams and memes, post them on X and earn $CLIP for every approved clip.',
    reads: ['/api/feed/clips?limit=5', '/api/featured-clippers', '/api/top-streamers'],
    lazy: () => import('../screens/home-page.js'),
  },
  {
    path: '/feed',
    title: 'ClipTok',
    description: "Scroll the newest approved CLIP IT clips, full screen: like them and trade the tagged streamer's token.",
    reads: ['/api/feed/clips?limit=10'],
    lazy: () => import('../screens/feed-page.js'),
  },
  {
    path: '/discover',
    title: 'Discover Creators',
    description: 'Find CLIP IT clippers and streamers by handle, sorted by clips, views or average views, and follow streamers.',
    reads: ['/api/creators/clippers'],
    lazy: () => import('../screens/discover-page.js'),
  },
  {
    path: '/leaderboard',
    title: 'X Leaderboard',
    description: 'The most viewed CLIP IT posts on X and the top creators by views and mindshare.',
    reads: ['/api/leaderboard/users', '/api/leaderboard/stats', '/api/leaderboard/posts'],
    lazy: () => import('../screens/leaderboard-page.js'),
  },
  {
    path: '/clipper/:userId',
    title: 'Clipper Profile',
    description: "A CLIP IT creator's profile: clips, views, likes and approved videos.",
    reads: ['/api/clipper/:userId'],
    lazy: () => import('../screens/clipper-profile-page.js'),
  },
  {
    path: '/submit',
    title: 'Submit Your Clip',
    description: 'Submit your X post with its video to CLIP IT: approved clips appear in the feed and earn rewards.',
    lazy: () => import('../screens/submit-page.js'),
  },
  {
    path: '/guide',
    title: 'How It Works',
    description: 'How clipping for CLIP IT works: the rules for clips, tiers, clip points and weekly $CLIP payouts.',
    reads: ['/api/tiers'],
    lazy: () => import('../screens/guide-page.js'),
  },
  {
    path: '/login',
    title: 'Login',
    description: 'Log in to CLIP IT with your Twitter handle to submit clips, follow streamers and track your rewards.',
    lazy: () => import('../screens/login-page.js'),
  },
  {
    path: '/reset-password',
    title: 'Set Your New Password',
    description: 'Confirm the new password of your CLIP IT account from the link we emailed you.',
    lazy: () => import('../screens/reset-password-page.js'),
  },
  {
    path: '/verify-email',
    title: 'Confirm Your Email',
    description: 'Confirm the email address of your CLIP IT account from the link we emailed you.',
    lazy: () => import('../screens/verify-email-page.js'),
  },
  {
    path: '/connect',
    title: 'Connect Wallet',
    description: 'Connect the Solana wallet your CLIP IT rewards are paid to.',
    lazy: () => import('../screens/connect-page.js'),
  },
  {
    path: '/hires/:hireId/rate',
    title: 'Rate Your Hire',
    description: 'Rate the CLIP IT clipper you hired, once the work is completed, with the link you were given.',
    lazy: () => import('../screens/hire-rating-page.js'),
  },
  {
    path: '/client-services',
    title: 'Client Services',
    description: 'Hire CLIP IT clippers to cut and post branded clips of your streams and memes.',
    lazy: () => import('../screens/client-services-page.js'),
  },
];

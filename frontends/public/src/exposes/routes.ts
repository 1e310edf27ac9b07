import type { RemoteRoute } from '@clipit/frontend-contracts';

/**
 * The pages of the public area (spec 01: home, feed, discover, leaderboard, clipper profiles, login, submit, …), mounted by the shell inside its frame.
 * A page is added as `{ path, title, description, lazy: () => import('../screens/<screen>.js') }` (see frontends/README.md).
 */
export const routes: readonly RemoteRoute[] = [
  { path: '/login', title: 'Login', description: 'Log in to CLIP IT with your Twitter handle to submit clips, follow streamers and track your rewards.', lazy: () => import('../screens/login-page.js') },
  { path: '/connect', title: 'Connect Wallet', description: 'Connect the Solana wallet your CLIP IT rewards are paid to.', lazy: () => import('../screens/connect-page.js') },
  { path: '/client-services', title: 'Client Services', description: 'Hire CLIP IT clippers to cut and post branded clips of your streams and memes.', lazy: () => import('../screens/client-services-page.js') },
];

import type { RemoteRoute } from '@clipit/frontend-contracts';

/**
 * The pages of the public area (spec 01: home, feed, discover, leaderboard, clipper profiles, login, submit, …), mounted by the shell inside its frame.
 * A page is added as `{ path, title, lazy: () => import('../screens/<screen>.js') }` (see frontends/README.md).
 */
export const routes: readonly RemoteRoute[] = [
  { path: '/login', title: 'Login', lazy: () => import('../screens/login-page.js') },
  { path: '/connect', title: 'Connect Wallet', lazy: () => import('../screens/connect-page.js') },
  { path: '/client-services', title: 'Client Services', lazy: () => import('../screens/client-services-page.js') },
];

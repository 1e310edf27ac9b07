import type { RemoteRoute } from '@clipit/frontend-contracts';

/**
 * The pages of the signed-in areas (spec 02: clipper and streamer dashboards, campaigns, hiring, the guide), mounted by the shell inside its frame.
 * A page is added as `{ path, title, description, lazy: () => import('../screens/<screen>.js') }` (see frontends/README.md),
 * with `reads`: the API calls its screen makes first, fetched with the page's HTML (routes.spec.tsx checks them).
 */
export const routes: readonly RemoteRoute[] = [
  {
    path: '/clippers/auth',
    title: 'Clipper Sign In',
    description: 'Sign in as a CLIP IT clipper to submit clips and see your approvals, points and payouts.',
    lazy: () => import('../screens/clipper-auth-page.js'),
  },
  {
    path: '/clippers/dashboard',
    title: 'Clipper Dashboard',
    description: 'Your CLIP IT clipper dashboard: approvals, tier progress, clip points, earnings and payouts, and your profile.',
    reads: ['/api/user/me', '/api/dashboard'],
    lazy: () => import('../screens/clipper-dashboard-page.js'),
  },
  {
    path: '/clippers/apply',
    title: 'Apply to Clip',
    description: 'Apply to clip for CLIP IT: cut branded clips from live streams, post them on X and earn for every approved clip.',
    lazy: () => import('../screens/clipper-apply-page.js'),
  },
];

import type { RemoteRoute } from '@clipit/frontend-contracts';

/**
 * The pages of the admin area (spec 02: /admin behind its password gate, moderation), mounted by the shell inside its frame.
 * A page is added as `{ path, title, lazy: () => import('../screens/<screen>.js') }` (see frontends/README.md).
 */
export const routes: readonly RemoteRoute[] = [
  { path: '/admin', title: 'Admin', description: 'CLIP IT moderation, for admins.', lazy: () => import('../screens/admin-page.js') },
];

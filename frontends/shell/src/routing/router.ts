import { createBrowserRouter, type DataRouter } from 'react-router';
import type { RemoteState } from '../federation/site.js';
import { siteRoutes } from './routes.js';

let current: { remotes: readonly RemoteState[]; router: DataRouter } | undefined;

/**
 * The router for the remotes as they are now: one per state of the remotes, the previous one disposed
 * when a retry brings a missing remote in (the URL lives in the browser, so the page stays where it is).
 */
export function routerFor(remotes: readonly RemoteState[]): DataRouter {
  if (current?.remotes !== remotes) {
    current?.router.dispose();
    current = { remotes, router: createBrowserRouter(siteRoutes(remotes)) };
  }
  return current.router;
}

import { createBrowserRouter, type DataRouter } from '@clipit/router';
import type { Routing, SiteState, SiteStore } from '../federation/site.js';
import { fallbackRoutes, siteRoutes } from './routes.js';

let current: { key: Routing | 'fallback'; router: DataRouter } | undefined;

/**
 * The router for the site as it is now: while the remotes are being found (or /remotes.json cannot
 * be read) one fallback router that shows the frame around the wait or the failure; then one per route
 * table (the remotes' pages), the previous one disposed when a retry brings a missing remote's pages in
 * (the URL lives in the browser, so the page stays where it is). A remote's code arriving changes no
 * route, so the page on screen is never remounted by it.
 */
export function routerFor(state: SiteState, screenOf: SiteStore['screenOf']): DataRouter {
  const key = state.phase === 'ready' ? state.routing : 'fallback';
  if (current?.key !== key) {
    current?.router.dispose();
    current = { key, router: createBrowserRouter(state.phase === 'ready' ? siteRoutes(state.routing, screenOf) : fallbackRoutes()) };
  }
  return current.router;
}

/** Goes to an in-app path with the current router (from outside the router, e.g. a notification click). */
export function navigateTo(path: string): void {
  if (current) void current.router.navigate(path);
  else window.location.assign(path);
}

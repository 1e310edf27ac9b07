// What the header, the mobile drawer and the mobile bottom bar link to (spec 01 §2), and which bottom
// bar entry is the current page. Pure: the components render these lists.

export interface NavLinkItem {
  to: string;
  label: string;
}

/** The header's in-app links before and after the Discover menu (Dashboard only when signed in). */
export const PRIMARY_LINKS: readonly NavLinkItem[] = [
  { to: '/', label: 'Home' },
  { to: '/feed', label: 'ClipTok' },
];

export const DISCOVER_LINKS: readonly NavLinkItem[] = [
  { to: '/discover', label: 'Discover Creators' },
  { to: '/leaderboard', label: 'Leaderboard' },
];

export const CLIENT_SERVICES_LINK: NavLinkItem = { to: '/client-services', label: 'Client Services' };
export const DASHBOARD_LINK: NavLinkItem = { to: '/clippers/dashboard', label: 'Dashboard' };
export const LOGIN_LINK: NavLinkItem = { to: '/login', label: 'Login' };
/** A full-page navigation (the gateway ends the session and redirects), never the router. */
export const LOGOUT_HREF = '/api/logout';

/** The bottom bar's routes that are highlighted when current (Add is a button, not a route). */
export type BottomTab = 'feed' | 'discover' | 'login';

export const BOTTOM_TAB_PATHS: Readonly<Record<BottomTab, string>> = {
  feed: '/feed',
  discover: '/discover',
  login: '/login',
};

/** Whether `pathname` is `path` or a page below it (`/feed`, `/feed/`, `/feed/123`; not `/feedback`). */
export function isWithin(pathname: string, path: string): boolean {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return normalised === path || normalised.startsWith(`${path}/`);
}

/** The bottom bar entry to highlight for a location's pathname, if any. */
export function activeBottomTab(pathname: string): BottomTab | null {
  for (const tab of Object.keys(BOTTOM_TAB_PATHS) as BottomTab[]) {
    if (isWithin(pathname, BOTTOM_TAB_PATHS[tab])) return tab;
  }
  return null;
}

/** Whether one of the Discover menu's pages is current (the menu button is then marked too). */
export function isDiscoverActive(pathname: string): boolean {
  return DISCOVER_LINKS.some((link) => isWithin(pathname, link.to));
}

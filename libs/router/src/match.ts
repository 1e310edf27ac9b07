// Which routes a path opens. A route table is a tree: layout routes (no path) wrap their children; a
// route's path is absolute or relative to its parent's. Paths are segments: static (`feed`), dynamic
// (`:userId`, one whole segment) or a final splat (`*`, the rest). When several routes match, the most
// specific wins, as in react-router: one point per segment, plus 10 per static segment, 3 per dynamic
// one, -2 for a splat (the root path scores 2); ties go to the route listed first.
import type { ReactNode } from 'react';

export interface RouteObject {
  path?: string;
  element?: ReactNode;
  /** Rendered instead of this route's subtree when something in it throws while rendering. */
  errorElement?: ReactNode;
  /** Anything the app attaches (the shell: the page's title and description), read with useMatches. */
  handle?: unknown;
  children?: RouteObject[];
}

export type Params = Record<string, string>;

export interface RouteMatch {
  route: RouteObject;
  /** The part of the path this route matched. */
  pathname: string;
  params: Params;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

/** The params of `pattern` on `pathname` (whole path), or null when it does not match. Case-insensitive, like react-router. */
export function matchPath(pattern: string, pathname: string): Params | null {
  const want = segmentsOf(pattern);
  const have = segmentsOf(pathname);
  const params: Params = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i]!;
    if (w === '*' && i === want.length - 1) {
      params['*'] = have.slice(i).map(decode).join('/');
      return params;
    }
    const h = have[i];
    if (h === undefined) return null;
    if (w.startsWith(':')) params[w.slice(1)] = decode(h);
    else if (w.toLowerCase() !== h.toLowerCase()) return null;
  }
  return have.length === want.length ? params : null;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function score(path: string): number {
  const segments = segmentsOf(path);
  // The root path counts as one empty segment (1), so it outranks a bare splat (1 - 2).
  if (segments.length === 0) return 2;
  return segments.reduce((sum, s) => sum + (s === '*' ? -2 : s.startsWith(':') ? 3 : 10), segments.filter((s) => s !== '*').length || 1);
}

interface Branch {
  path: string;
  routes: RouteObject[];
  order: number;
}

function join(parent: string, path: string | undefined): string {
  if (path === undefined) return parent;
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

function branchesOf(routes: readonly RouteObject[], parentPath = '/', parents: RouteObject[] = [], out: Branch[] = []): Branch[] {
  for (const route of routes) {
    const path = join(parentPath, route.path);
    const chain = [...parents, route];
    if (route.children?.length) branchesOf(route.children, path, chain, out);
    // A route with a path is a place of its own; a layout without one only wraps its children.
    else if (route.path !== undefined) out.push({ path, routes: chain, order: out.length });
  }
  return out;
}

/** The chain of routes (root layout to page) that `pathname` opens, or null when none matches. */
export function matchRoutes(routes: readonly RouteObject[], pathname: string): RouteMatch[] | null {
  const ranked = branchesOf(routes).sort((a, b) => score(b.path) - score(a.path) || a.order - b.order);
  for (const branch of ranked) {
    const params = matchPath(branch.path, pathname);
    if (params) return branch.routes.map((route) => ({ route, pathname, params }));
  }
  return null;
}

// The router the shell owns and every screen talks to (one instance per page: a shared singleton). A
// route table with layouts (`Outlet`), handles and error elements; navigations run in a React transition,
// so the page on screen stays while the next one loads (`useNavigation().state` is 'loading' meanwhile).
import { Component, createContext, use, useEffect, useMemo, useState, useTransition, type ReactNode } from 'react';
import {
  createBrowserHistory,
  createMemoryHistory,
  resolveTo,
  type Action,
  type History,
  type Location,
  type NavigateOptions,
  type To,
} from './history.js';
import { matchRoutes, type Params, type RouteMatch, type RouteObject } from './match.js';

export interface DataRouter {
  readonly routes: readonly RouteObject[];
  readonly history: History;
  /** Goes somewhere (a number goes back or forward in history). */
  navigate(to: To | number, options?: NavigateOptions): void;
  /** Stops listening to the browser (a new router replaces this one). */
  dispose(): void;
}

interface RouterOptions {
  /** Scroll to the top when a pushed navigation's page renders (the browser router). */
  scrollToTop: boolean;
}

const routerOptions = new WeakMap<DataRouter, RouterOptions>();

function createRouter(routes: readonly RouteObject[], history: History, options: RouterOptions, dispose: () => void): DataRouter {
  const router: DataRouter = {
    routes,
    history,
    navigate(to, opts = {}) {
      if (typeof to === 'number') history.go(to);
      else if (opts.replace) history.replace(to, opts.state);
      else history.push(to, opts.state);
    },
    dispose,
  };
  routerOptions.set(router, options);
  return router;
}

/** A router over the browser's address bar. */
export function createBrowserRouter(routes: readonly RouteObject[]): DataRouter {
  return createRouter(routes, createBrowserHistory(), { scrollToTop: true }, () => undefined);
}

/** A router over an in-memory history (component tests). */
export function createMemoryRouter(
  routes: readonly RouteObject[],
  opts: { initialEntries?: readonly To[]; initialIndex?: number } = {},
): DataRouter {
  return createRouter(routes, createMemoryHistory(opts.initialEntries, opts.initialIndex), { scrollToTop: false }, () => undefined);
}

export interface Navigation {
  state: 'idle' | 'loading';
}

interface LocationState {
  history: History;
  /**
   * Where the history is (the address bar): what `useLocation`, `useSearchParams` and the links read, so
   * the site's navigation marks a tapped link at once.
   */
  location: Location;
  /** The location the routes on screen were matched for: behind `location` while a navigation's page loads. */
  rendered: Location;
  navigation: Navigation;
}

const LocationContext = createContext<LocationState | null>(null);
interface RouteState {
  matches: readonly RouteMatch[];
  depth: number;
}
const RouteContext = createContext<RouteState>({ matches: [], depth: -1 });
const RouteErrorContext = createContext<unknown>(undefined);

/** The router's location state (for the links in this library). */
export function useLocationState(): LocationState {
  const state = use(LocationContext);
  if (!state) throw new Error('a router hook or link was used outside a router (RouterProvider or MemoryRouter)');
  return state;
}

/** Follows a history: its location, changed inside a transition, and whether a change is still rendering. */
function useHistory(history: History, scrollToTop: boolean): LocationState {
  const [current, setCurrent] = useState<{ location: Location; action: Action }>(() => ({ location: history.location, action: 'POP' }));
  const [target, setTarget] = useState(history.location);
  const [pending, startTransition] = useTransition();
  useEffect(() => {
    if (history.location.key !== current.location.key) {
      setCurrent({ location: history.location, action: 'POP' });
      setTarget(history.location);
    }
    return history.listen((location, action) => {
      setTarget(location);
      startTransition(() => setCurrent({ location, action }));
    });
    // Subscribe once per history; the first check catches a change between render and subscription.
  }, [history]);
  useEffect(() => {
    if (scrollToTop && current.action === 'PUSH' && !current.location.hash) window.scrollTo(0, 0);
  }, [current, scrollToTop]);
  return useMemo(
    () => ({ history, location: target, rendered: current.location, navigation: { state: pending ? 'loading' : 'idle' } }),
    [history, current, target, pending],
  );
}

/** Renders the route table of `router` for the current location. */
export function RouterProvider({ router }: { router: DataRouter }) {
  const state = useHistory(router.history, routerOptions.get(router)?.scrollToTop ?? false);
  const matches = useMemo(() => matchRoutes(router.routes, state.rendered.pathname) ?? [], [router, state.rendered.pathname]);
  return (
    <LocationContext value={state}>
      <RouteLevel matches={matches} depth={0} />
    </LocationContext>
  );
}

/** A router for component tests, around children that use `Routes` or just links and hooks. */
export function MemoryRouter({
  initialEntries,
  initialIndex,
  children,
}: {
  initialEntries?: readonly To[];
  initialIndex?: number;
  children?: ReactNode;
}) {
  const [history] = useState(() => createMemoryHistory(initialEntries, initialIndex));
  const state = useHistory(history, false);
  return <LocationContext value={state}>{children}</LocationContext>;
}

interface BoundaryProps {
  fallback: ReactNode;
  /** The location's key: a navigation (even to the same URL) clears a caught error. */
  resetKey: string;
  children: ReactNode;
}

class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; resetKey: string; failed: boolean }> {
  override state = { error: undefined as unknown, resetKey: this.props.resetKey, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { resetKey: string; failed: boolean }) {
    return props.resetKey !== state.resetKey ? { error: undefined, failed: false, resetKey: props.resetKey } : null;
  }

  override render() {
    return this.state.failed ? <RouteErrorContext value={this.state.error}>{this.props.fallback}</RouteErrorContext> : this.props.children;
  }
}

function RouteLevel({ matches, depth }: RouteState) {
  const { rendered } = useLocationState();
  const match = matches[depth];
  const value = useMemo(() => ({ matches, depth }), [matches, depth]);
  if (!match) return null;
  const element = match.route.element ?? <Outlet />;
  return (
    <RouteContext value={value}>
      {match.route.errorElement ? (
        <RouteErrorBoundary fallback={match.route.errorElement} resetKey={rendered.key}>
          {element}
        </RouteErrorBoundary>
      ) : (
        element
      )}
    </RouteContext>
  );
}

/** Where a layout route renders the route below it. */
export function Outlet() {
  const { matches, depth } = use(RouteContext);
  return <RouteLevel matches={matches} depth={depth + 1} />;
}

/** `<Route path element />` inside `Routes`: component tests' way to declare routes. */
export function Route(_props: { path?: string; element?: ReactNode }): ReactNode {
  return null;
}

/** Renders the first best-matching `Route` child for the current location (component tests). */
export function Routes({ children }: { children: ReactNode }) {
  const { rendered } = useLocationState();
  const routes = useMemo(
    () =>
      (Array.isArray(children) ? children : [children])
        .flat()
        .filter(
          (child): child is { props: { path?: string; element?: ReactNode } } =>
            typeof child === 'object' && child !== null && 'props' in child,
        )
        .map((child) => ({ path: child.props.path ?? '', element: child.props.element })),
    [children],
  );
  const matches = useMemo(() => matchRoutes(routes, rendered.pathname) ?? [], [routes, rendered.pathname]);
  return <RouteLevel matches={matches} depth={0} />;
}

/** The current location (the address bar's, already the next page's while that page loads). */
export function useLocation(): Location {
  return useLocationState().location;
}

/** Whether a navigation is still rendering its page. */
export function useNavigation(): Navigation {
  return useLocationState().navigation;
}

export type NavigateFunction = (to: To | number, options?: NavigateOptions) => void;

/** Goes somewhere from an event handler. */
export function useNavigate(): NavigateFunction {
  const { history } = useLocationState();
  return useMemo(
    () =>
      (to: To | number, options: NavigateOptions = {}) => {
        if (typeof to === 'number') history.go(to);
        else if (options.replace) history.replace(to, options.state);
        else history.push(to, options.state);
      },
    [history],
  );
}

/** The dynamic segments of the matched route (`/clipper/:userId` → `{ userId }`). */
export function useParams(): Readonly<Params> {
  const { matches } = use(RouteContext);
  return matches.at(-1)?.params ?? {};
}

export interface UIMatch {
  pathname: string;
  params: Params;
  handle: unknown;
}

/** The matched routes, root layout first (the shell reads the page's handle from the last one). */
export function useMatches(): UIMatch[] {
  const { matches } = use(RouteContext);
  return useMemo(() => matches.map((m) => ({ pathname: m.pathname, params: m.params, handle: m.route.handle })), [matches]);
}

/** What a route's subtree threw, inside its errorElement. */
export function useRouteError(): unknown {
  return use(RouteErrorContext);
}

export type SetSearchParams = (
  next: URLSearchParams | Record<string, string> | ((previous: URLSearchParams) => URLSearchParams | Record<string, string>),
  options?: NavigateOptions,
) => void;

/** The query string as URLSearchParams, and a setter that navigates to the same path with new ones. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { history, location } = useLocationState();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useMemo<SetSearchParams>(
    () =>
      (next, options = {}) => {
        const current = new URLSearchParams(history.location.search);
        const value = typeof next === 'function' ? next(current) : next;
        const search = new URLSearchParams(value).toString();
        const to = { ...resolveTo({ search: search ? `?${search}` : '' }, history.location) };
        if (options.replace) history.replace(to, options.state);
        else history.push(to, options.state);
      },
    [history],
  );
  return [params, set];
}

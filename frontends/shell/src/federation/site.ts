// What the shell knows about the site at a given moment: starting, /remotes.json unreachable, or ready
// with each remote's pages (read from its small mf-manifest.json) and whether its code is loaded. A
// small external store, so loading runs once outside React (StrictMode renders twice) and Retry can be
// pressed from anywhere in the tree.
//
// Only the remote that owns the page being opened is loaded before that page renders; the others are
// loaded once the browser is idle, so a first visit downloads one remote's code instead of three, and
// later navigations find the others ready (docs/adr/0023-public-site-loading.md). The site turns ready
// once that page's screen is loaded (or after FIRST_SCREEN_WAIT_MS), so its first render shows the
// screen at once: a screen that suspended would be held back by React's reveal throttle (300 ms).
import type { RemotePage, RemoteRoute } from '@clipit/frontend-contracts';
import { matchRoutes } from '@clipit/router';
import type { ComponentType } from 'react';
import { fetchRemotesManifest, RemoteLoadError, RemoteRegistry } from './registry.js';
import type { ExposesOf, LoadRemoteModule } from './remote-types.js';

export type RemoteState =
  /** Its pages are known; its code is not loaded yet (it is, when one of its pages opens or the browser is idle). */
  | { name: string; status: 'known'; pages: readonly RemotePage[] }
  | { name: string; status: 'loaded'; pages: readonly RemotePage[]; buildId: string }
  /** Its manifest could not be read (no pages known), or its code could not be loaded (`pages` known). */
  | { name: string; status: 'failed'; pages: readonly RemotePage[] | null; error: unknown };

/**
 * The route table's inputs: the pages of each remote whose manifest was read, and whether some remote's
 * pages are unknown. Replaced only when that changes (at start and on a Retry that reads a manifest),
 * never when a remote's code arrives, so loading a remote does not remount the page on screen.
 */
export interface Routing {
  pages: readonly { remote: string; page: RemotePage }[];
  remoteMissing: boolean;
}

export type SiteState =
  | { phase: 'starting' }
  /** /remotes.json could not be read: nothing is known about the remotes. */
  | { phase: 'unavailable'; error: unknown; retrying: boolean }
  | { phase: 'ready'; remotes: readonly RemoteState[]; routing: Routing; retrying: boolean };

export interface SiteStore {
  getState(): SiteState;
  subscribe(listener: () => void): () => void;
  start(): Promise<void>;
  /** Reads again whatever failed (the site manifest, or the remotes that did not load), forgetting the failed attempts. */
  retry(): Promise<void>;
  /**
   * The loader of one page's screen (the same function for the same page, so a download is shared): it
   * loads that remote's routes first if they are not loaded.
   */
  screenOf(remote: string, path: string): RemoteRoute['lazy'];
  /**
   * One more exposed module of a remote (e.g. the public remote's `./AddClipDialog`), through the same
   * registry; RemoteLoadError at once while the site is not ready or that remote's manifest is unknown.
   */
  load: LoadRemoteModule;
}

/** Marked once per page load, when the first screen has rendered: what `npm run bench:web` counts JavaScript up to. */
export const SCREEN_RENDERED_MARK = 'clipit:screen-rendered';

/** Resolves once the first screen has rendered (its mark), or after `maxMs` (a screen that threw never marks). */
function screenRendered(maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (performance.getEntriesByName(SCREEN_RENDERED_MARK).length > 0) return resolve();
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(SCREEN_RENDERED_MARK).length > 0) done();
    });
    const timer = setTimeout(() => done(), maxMs);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe({ type: 'mark', buffered: true });
  });
}

/** How long the site waits for the opening page's screen before rendering the routes without it (its screen then suspends). */
export const FIRST_SCREEN_WAIT_MS = 3000;

/**
 * A screen's download as React's `use` reads it: marked fulfilled when it settles, so a screen loaded
 * before its first render renders at once instead of suspending for a microtask (React's convention
 * for thenables it has already seen settle).
 */
type TrackedScreen = Promise<{ default: ComponentType }> & { status?: 'fulfilled'; value?: { default: ComponentType } };

function tracked(download: Promise<{ default: ComponentType }>): TrackedScreen {
  const promise: TrackedScreen = download;
  promise.then(
    (value) => {
      promise.status = 'fulfilled';
      promise.value = value;
    },
    () => undefined,
  );
  return promise;
}

/** The page `pathname` opens on the site as `routing` describes it, if a remote claims it. */
export function pageAt(routing: Routing, pathname: string): { remote: string; page: RemotePage } | undefined {
  const routes = routing.pages.map((entry) => ({ path: entry.page.path, handle: entry }));
  return matchRoutes(routes, pathname)?.at(-1)?.route.handle as { remote: string; page: RemotePage } | undefined;
}

/** Resolves once the page has loaded and the browser is idle (at the latest 2 s after load). */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    const wait = () =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 200);
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
  });
}

export function createSiteStore(): SiteStore {
  let state: SiteState = { phase: 'starting' };
  let registry: RemoteRegistry | undefined;
  /** Each remote's `./routes` (and `./version`), loading or loaded; a failure is forgotten so the next ask tries again. */
  const routeModules = new Map<string, Promise<readonly RemoteRoute[]>>();
  /** The build id of each remote whose routes have loaded. */
  const loadedBuilds = new Map<string, string>();
  const listeners = new Set<() => void>();
  const set = (next: SiteState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const update = (name: string, next: RemoteState) => {
    if (state.phase === 'ready') set({ ...state, remotes: state.remotes.map((r) => (r.name === name ? next : r)) });
  };
  const pagesOf = (name: string) => (state.phase === 'ready' ? (state.remotes.find((r) => r.name === name)?.pages ?? null) : null);

  function routingOf(remotes: readonly RemoteState[]): Routing {
    return {
      pages: remotes.flatMap((remote) => (remote.pages ?? []).map((page) => ({ remote: remote.name, page }))),
      remoteMissing: remotes.some((remote) => remote.pages === null),
    };
  }

  async function readRemote(found: RemoteRegistry, name: string): Promise<RemoteState> {
    try {
      return { name, status: 'known', pages: await found.readPages(name) };
    } catch (error) {
      console.error(error);
      return { name, status: 'failed', pages: null, error };
    }
  }

  function routesOf(name: string): Promise<readonly RemoteRoute[]> {
    let pending = routeModules.get(name);
    if (pending) return pending;
    const found = registry;
    if (!found) return Promise.reject(new RemoteLoadError(name, `${name} is not known yet`));
    pending = Promise.all([found.load(name, './routes'), found.load(name, './version')]).then(
      ([routes, version]) => {
        loadedBuilds.set(name, version.buildId);
        update(name, { name, status: 'loaded', pages: pagesOf(name) ?? [], buildId: version.buildId });
        return routes.routes;
      },
      (error: unknown) => {
        console.error(error);
        routeModules.delete(name);
        found.reset(name);
        update(name, { name, status: 'failed', pages: pagesOf(name), error });
        throw error;
      },
    );
    routeModules.set(name, pending);
    return pending;
  }

  /** The first screen asked for (the page being opened), which the other remotes wait for. */
  let firstScreen: Promise<unknown> | undefined;

  /**
   * The remotes not loaded yet, loaded one after another once the browser is idle and the page being
   * opened has its screen (so they never compete with it); failures are said when their pages open.
   */
  function loadTheRestWhenIdle(): void {
    void (async () => {
      await idle();
      // The page's own screen first, shown (React may hold a revealed screen back a few hundred ms),
      // then idle again: the other remotes never compete with it.
      if (firstScreen) {
        const loaded = await firstScreen.then(
          () => true,
          () => false,
        );
        if (loaded) await screenRendered(5000);
        await idle();
      }
      if (state.phase !== 'ready') return;
      for (const remote of state.remotes) {
        if (remote.status === 'known') await routesOf(remote.name).catch(() => undefined);
      }
    })();
  }

  async function start(): Promise<void> {
    try {
      registry ??= new RemoteRegistry(await fetchRemotesManifest());
    } catch (error) {
      console.error(error);
      set({ phase: 'unavailable', error, retrying: false });
      return;
    }
    const found = registry;
    const remotes = await Promise.all(found.names().map((name) => readRemote(found, name)));
    const routing = routingOf(remotes);
    await openingScreen(routing);
    // The opening page's remote loaded meanwhile (before the site was ready, so not recorded yet).
    const now = remotes.map((remote): RemoteState => {
      const buildId = loadedBuilds.get(remote.name);
      return buildId !== undefined && remote.pages !== null
        ? { name: remote.name, status: 'loaded', pages: remote.pages, buildId }
        : remote;
    });
    set({ phase: 'ready', remotes: now, routing, retrying: false });
    loadTheRestWhenIdle();
  }

  /** Loads the screen of the page being opened (failures are shown when it renders), for FIRST_SCREEN_WAIT_MS at most. */
  async function openingScreen(routing: Routing): Promise<void> {
    const opening = pageAt(routing, window.location.pathname);
    if (!opening) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      screenOf(opening.remote, opening.page.path)().catch(() => undefined),
      new Promise((resolve) => {
        timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  async function retry(): Promise<void> {
    const current = state;
    if (current.phase === 'starting' || current.retrying) return;
    set({ ...current, retrying: true });
    if (current.phase === 'unavailable' || !registry) {
      await start();
      return;
    }
    const found = registry;
    const remotes = await Promise.all(
      current.remotes.map(async (remote) => {
        if (remote.status !== 'failed') return remote;
        found.reset(remote.name);
        return remote.pages === null
          ? readRemote(found, remote.name)
          : ({ name: remote.name, status: 'known', pages: remote.pages } satisfies RemoteState);
      }),
    );
    const changed = remotes.some((remote, i) => current.remotes[i]?.pages === null && remote.pages !== null);
    set({ phase: 'ready', remotes, routing: changed ? routingOf(remotes) : current.routing, retrying: false });
    loadTheRestWhenIdle();
  }

  const screens = new Map<string, RemoteRoute['lazy']>();
  function screenOf(remote: string, path: string): RemoteRoute['lazy'] {
    const key = `${remote} ${path}`;
    let loader = screens.get(key);
    if (!loader) {
      // One download per screen while it loads or once it has; a failed one is forgotten (Retry asks again).
      let pending: TrackedScreen | undefined;
      loader = () => {
        if (pending) return pending;
        const screen = tracked(
          routesOf(remote).then((routes) => {
            const route = routes.find((r) => r.path === path);
            if (!route)
              throw new RemoteLoadError(
                remote,
                `${remote} lists ${path} in its manifest but not in its routes (a manifest from another build?)`,
              );
            return route.lazy();
          }),
        );
        pending = screen;
        screen.catch(() => {
          if (pending === screen) pending = undefined;
        });
        firstScreen ??= screen;
        return screen;
      };
      screens.set(key, loader);
    }
    return loader;
  }

  async function load<R extends string, K extends keyof ExposesOf<R> & `./${string}`>(remote: R, expose: K): Promise<ExposesOf<R>[K]> {
    const known = state.phase === 'ready' ? state.remotes.find((r) => r.name === remote) : undefined;
    if (!registry || !known || known.pages === null) throw new RemoteLoadError(remote, `${remote} is not loaded`);
    return registry.load(remote, expose);
  }

  return {
    getState: () => state,
    load,
    screenOf,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start,
    retry,
  };
}

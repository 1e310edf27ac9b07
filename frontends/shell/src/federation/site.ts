// What the shell knows about the site at a given moment: starting, /remotes.json unreachable, or ready
// with each remote's pages (read from its small mf-manifest.json) and whether its code is loaded. A
// small external store, so loading runs once outside React (StrictMode renders twice) and Retry can be
// pressed from anywhere in the tree.
//
// Only the remote that owns the page being opened is loaded before that page renders (its screen asks
// for it); the others are loaded once the browser is idle, so a first visit downloads one remote's code
// instead of three, and later navigations find the others ready (docs/adr/0023-public-site-loading.md).
import type { RemotePage, RemoteRoute } from '@clipit/frontend-contracts';
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

/** Resolves once the page has loaded and the browser is idle (at the latest 2 s after load). */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    const wait = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 200));
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
  });
}

export function createSiteStore(): SiteStore {
  let state: SiteState = { phase: 'starting' };
  let registry: RemoteRegistry | undefined;
  /** Each remote's `./routes` (and `./version`), loading or loaded; a failure is forgotten so the next ask tries again. */
  const routeModules = new Map<string, Promise<readonly RemoteRoute[]>>();
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
    set({ phase: 'ready', remotes, routing: routingOf(remotes), retrying: false });
    loadTheRestWhenIdle();
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
        return remote.pages === null ? readRemote(found, remote.name) : ({ name: remote.name, status: 'known', pages: remote.pages } satisfies RemoteState);
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
      loader = () => {
        const screen = routesOf(remote).then((routes) => {
          const route = routes.find((r) => r.path === path);
          if (!route) throw new RemoteLoadError(remote, `${remote} lists ${path} in its manifest but not in its routes (a manifest from another build?)`);
          return route.lazy();
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

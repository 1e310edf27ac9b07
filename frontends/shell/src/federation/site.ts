// What the shell knows about the site at a given moment: starting, /remotes.json unreachable, or ready
// with each remote loaded (its routes and build id) or failed. A small external store, so loading runs
// once outside React (StrictMode renders twice) and Retry can be pressed from anywhere in the tree.
import type { RemoteRoute } from '@clipit/frontend-contracts';
import { fetchRemotesManifest, RemoteLoadError, RemoteRegistry } from './registry.js';
import type { ExposesOf, LoadRemoteModule } from './remote-types.js';

export type RemoteState =
  | { name: string; status: 'loaded'; routes: readonly RemoteRoute[]; buildId: string }
  | { name: string; status: 'failed'; error: unknown };

export type SiteState =
  | { phase: 'starting' }
  /** /remotes.json could not be read: nothing is known about the remotes. */
  | { phase: 'unavailable'; error: unknown; retrying: boolean }
  | { phase: 'ready'; remotes: readonly RemoteState[]; retrying: boolean };

export interface SiteStore {
  getState(): SiteState;
  subscribe(listener: () => void): () => void;
  start(): Promise<void>;
  /** Loads again whatever failed (the manifest, or the remotes that did not load), forgetting the failed attempts. */
  retry(): Promise<void>;
  /**
   * One more exposed module of a loaded remote (e.g. the public remote's `./AddClipDialog`), through
   * the same registry; RemoteLoadError at once while the site is not ready or that remote failed.
   */
  load: LoadRemoteModule;
}

async function loadRemoteState(registry: RemoteRegistry, name: string): Promise<RemoteState> {
  try {
    const [routes, version] = await Promise.all([registry.load(name, './routes'), registry.load(name, './version')]);
    return { name, status: 'loaded', routes: routes.routes, buildId: version.buildId };
  } catch (error) {
    console.error(error);
    return { name, status: 'failed', error };
  }
}

export function createSiteStore(): SiteStore {
  let state: SiteState = { phase: 'starting' };
  let registry: RemoteRegistry | undefined;
  const listeners = new Set<() => void>();
  const set = (next: SiteState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  async function start(): Promise<void> {
    try {
      registry ??= new RemoteRegistry(await fetchRemotesManifest());
    } catch (error) {
      console.error(error);
      set({ phase: 'unavailable', error, retrying: false });
      return;
    }
    const found = registry;
    set({ phase: 'ready', remotes: await Promise.all(found.names().map((name) => loadRemoteState(found, name))), retrying: false });
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
        if (remote.status === 'loaded') return remote;
        found.reset(remote.name);
        return loadRemoteState(found, remote.name);
      }),
    );
    set({ phase: 'ready', remotes, retrying: false });
  }

  async function load<R extends string, K extends keyof ExposesOf<R> & `./${string}`>(remote: R, expose: K): Promise<ExposesOf<R>[K]> {
    const known = state.phase === 'ready' ? state.remotes.find((r) => r.name === remote) : undefined;
    if (!registry || known?.status !== 'loaded') throw new RemoteLoadError(remote, `${remote} is not loaded`);
    return registry.load(remote, expose);
  }

  return {
    getState: () => state,
    load,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start,
    retry,
  };
}

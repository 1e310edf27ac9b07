// The remotes as this page knows them: read from GET /remotes.json, registered with the Module
// Federation runtime, loaded through one function that turns every way of failing (manifest down,
// remoteEntry.js missing, an exposed chunk that 404s, a remote that never answers) into one error.
import {
  containerName,
  pagesOfManifest,
  parseRemotesManifest,
  remoteRequest,
  REMOTES_MANIFEST_PATH,
  type RemotePage,
  type RemotesManifest,
} from '@clipit/frontend-contracts';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ExposesOf } from './remote-types.js';

/** How long one remote module may take before the shell gives up on it and says so. */
const LOAD_TIMEOUT_MS = 10_000;

/** A remote (or /remotes.json itself) could not be loaded; `cause` says how, for the console. */
export class RemoteLoadError extends Error {
  constructor(
    readonly remote: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RemoteLoadError';
  }
}

/** GET /remotes.json: where each remote's mf-manifest.json lives in this environment (never cached: no-store). */
export async function fetchRemotesManifest(): Promise<RemotesManifest> {
  let response: Response;
  try {
    // The default cache mode (the server says no-store) so the copy the page's Link header preloaded is used.
    response = await fetch(REMOTES_MANIFEST_PATH, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new RemoteLoadError(undefined, `${REMOTES_MANIFEST_PATH} could not be fetched`, { cause: err });
  }
  if (!response.ok) throw new RemoteLoadError(undefined, `${REMOTES_MANIFEST_PATH} answered ${response.status}`);
  try {
    return parseRemotesManifest(await response.json());
  } catch (err) {
    throw new RemoteLoadError(undefined, `${REMOTES_MANIFEST_PATH} is not a remotes manifest`, { cause: err });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not load within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class RemoteRegistry {
  private readonly entries: Map<string, string>;
  /** Each remote's mf-manifest.json as readPages read it, by absolute URL, handed to the runtime instead of a second download. */
  private readonly manifests = new Map<string, unknown>();

  constructor(manifest: RemotesManifest) {
    this.entries = new Map(Object.entries(manifest.remotes));
    // The manifests /remotes.json carries (the remotes the server serves itself): read from there, never fetched.
    for (const [name, json] of Object.entries(manifest.manifests ?? {})) {
      const entry = this.entries.get(name);
      if (entry !== undefined) this.manifests.set(new URL(entry, location.href).href, json);
    }
    registerPlugins([
      {
        name: 'clipit-manifests-read-once',
        fetch: (url: string) => {
          const json = this.manifests.get(new URL(url, location.href).href);
          return json === undefined
            ? undefined
            : Promise.resolve(new Response(JSON.stringify(json), { headers: { 'content-type': 'application/json' } }));
        },
      },
    ]);
    registerRemotes([...this.entries].map(([name, entry]) => ({ name: containerName(name), entry })));
  }

  /**
   * The pages a remote serves, from its mf-manifest.json (as /remotes.json carried it, else fetched:
   * only that small file, no code of the remote), which is kept for the federation runtime when the
   * remote is loaded; RemoteLoadError if the manifest cannot be read or lists no pages.
   */
  async readPages(remote: string): Promise<RemotePage[]> {
    const entry = this.entries.get(remote);
    if (entry === undefined) throw new RemoteLoadError(remote, `${remote} is not a remote of this site`);
    const url = new URL(entry, location.href).href;
    const carried = this.manifests.get(url);
    if (carried !== undefined) {
      try {
        return pagesOfManifest(carried);
      } catch (err) {
        throw new RemoteLoadError(remote, `the pages of ${remote} could not be read`, { cause: err });
      }
    }
    try {
      // The default cache mode: the server says no-cache (always revalidated), and a preloaded copy is used.
      const response = await withTimeout(fetch(url, { headers: { accept: 'application/json' } }), LOAD_TIMEOUT_MS, url);
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      const json: unknown = await response.json();
      const pages = pagesOfManifest(json);
      this.manifests.set(url, json);
      return pages;
    } catch (err) {
      throw new RemoteLoadError(remote, `the pages of ${remote} could not be read`, { cause: err });
    }
  }

  /** The remotes of this environment, in the order /remotes.json lists them. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * One exposed module of a remote, typed by the remote's generated types (by the contract for a remote
   * this build does not know); RemoteLoadError if it cannot be had.
   */
  async load<R extends string, K extends keyof ExposesOf<R> & `./${string}`>(remote: R, expose: K): Promise<ExposesOf<R>[K]> {
    const request = remoteRequest(remote, expose);
    try {
      const module = await withTimeout(loadRemote<ExposesOf<R>[K]>(request), LOAD_TIMEOUT_MS, request);
      if (!module) throw new Error(`${request} resolved to nothing`);
      return module;
    } catch (err) {
      throw new RemoteLoadError(remote, `${request} could not be loaded`, { cause: err });
    }
  }

  /**
   * Forgets everything loaded or cached for a remote (its manifest, its container, its modules,
   * failed attempts included), so the next load really fetches it again.
   */
  reset(remote: string): void {
    const entry = this.entries.get(remote);
    if (entry === undefined) return;
    // Its manifest is fetched afresh next time (the one /remotes.json carried may be of a build since replaced).
    this.manifests.delete(new URL(entry, location.href).href);
    registerRemotes([{ name: containerName(remote), entry }], { force: true });
  }
}

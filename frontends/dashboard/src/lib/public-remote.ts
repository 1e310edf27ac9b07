// The Submit New Clip tab shows the public remote's submission form (`public/SubmissionForm`), and the
// submissions list each approved clip's view history (`public/ViewHistory`). The
// shell registered the remotes with the page's federation runtime; a remote has no list of its own, so
// it asks the runtime's global registry for the instance that knows `public`: the same lookup as the
// runtime's `getInstance(finder)`, read from its documented global (`__FEDERATION__`) because this app
// does not depend on the runtime package.
import { containerName, remoteRequest, type PublicRemoteSharedExposes } from '@clipit/frontend-contracts';

type SubmissionFormModule = PublicRemoteSharedExposes['./SubmissionForm'];

/** The part of a federation instance this uses. */
interface FederationInstance {
  options?: { remotes?: readonly { name?: string }[] };
  loadRemote<T>(id: string): Promise<T | null>;
}

declare global {
  var __FEDERATION__: { __INSTANCES__?: FederationInstance[] } | undefined;
}

/** How long a module may take to arrive before the dashboard does without it (the form: a link to the submit page). */
export const LOAD_TIMEOUT_MS = 10_000;

/** The page's federation instance that has `remote` registered (the shell's), or null. */
function instanceKnowing(remote: string): FederationInstance | null {
  const name = containerName(remote);
  const instances = globalThis.__FEDERATION__?.__INSTANCES__ ?? [];
  return (
    instances.find((instance) => instance.options?.remotes?.some((r) => r.name === name) && typeof instance.loadRemote === 'function') ??
    null
  );
}

/** Loads a module the public remote shares with the others; rejects when the page's runtime does not know the public remote, or the module cannot be had in time. */
async function loadPublicModule<K extends keyof PublicRemoteSharedExposes>(
  expose: K,
  timeoutMs: number,
): Promise<PublicRemoteSharedExposes[K]['default']> {
  const instance = instanceKnowing('public');
  if (!instance) throw new Error('the public remote is not registered on this page');
  const request = remoteRequest('public', expose);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${request} did not load within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    const loaded = await Promise.race([instance.loadRemote<PublicRemoteSharedExposes[K]>(request), timeout]);
    const component: unknown = loaded?.default;
    if (typeof component !== 'function' && (typeof component !== 'object' || component === null))
      throw new Error(`${request} has no default export`);
    return component as PublicRemoteSharedExposes[K]['default'];
  } finally {
    clearTimeout(timer);
  }
}

/** Loads `public/SubmissionForm` (see loadPublicModule). */
export function loadSubmissionForm(timeoutMs = LOAD_TIMEOUT_MS): Promise<SubmissionFormModule['default']> {
  return loadPublicModule('./SubmissionForm', timeoutMs);
}

/** Loads `public/ViewHistory`, a submission's view history chart (see loadPublicModule). */
export function loadViewHistory(timeoutMs = LOAD_TIMEOUT_MS): Promise<PublicRemoteSharedExposes['./ViewHistory']['default']> {
  return loadPublicModule('./ViewHistory', timeoutMs);
}

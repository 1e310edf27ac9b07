// The Submit New Clip tab shows the public remote's submission form (`public/SubmissionForm`). The
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

/** How long the form may take to arrive before the tab offers the submit page instead. */
export const LOAD_TIMEOUT_MS = 10_000;

/** The page's federation instance that has `remote` registered (the shell's), or null. */
function instanceKnowing(remote: string): FederationInstance | null {
  const name = containerName(remote);
  const instances = globalThis.__FEDERATION__?.__INSTANCES__ ?? [];
  return instances.find((instance) => instance.options?.remotes?.some((r) => r.name === name) && typeof instance.loadRemote === 'function') ?? null;
}

/** Loads `public/SubmissionForm`; rejects when the page's runtime does not know the public remote, or the module cannot be had in time. */
export async function loadSubmissionForm(timeoutMs = LOAD_TIMEOUT_MS): Promise<SubmissionFormModule['default']> {
  const instance = instanceKnowing('public');
  if (!instance) throw new Error('the public remote is not registered on this page');
  const request = remoteRequest('public', './SubmissionForm');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${request} did not load within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    const loaded = await Promise.race([instance.loadRemote<SubmissionFormModule>(request), timeout]);
    const Form: unknown = loaded?.default;
    if (typeof Form !== 'function' && (typeof Form !== 'object' || Form === null)) throw new Error(`${request} has no default export`);
    return Form as SubmissionFormModule['default'];
  } finally {
    clearTimeout(timer);
  }
}

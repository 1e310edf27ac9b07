// The remotes of the site and the document the gateway serves at GET /remotes.json, which tells the
// shell where each remote's Module Federation manifest lives in this environment. The shell is built
// once and finds the remotes at run time, so a remote is rebuilt and redeployed on its own.

/** The federated remotes, in the order the shell registers them. */
export const REMOTE_NAMES = ['public', 'dashboard', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** Where the shell finds the remotes' manifests: `GET /remotes.json`, never cached. */
export const REMOTES_MANIFEST_PATH = '/remotes.json';

/**
 * GET /remotes.json. Each value is the URL of that remote's `mf-manifest.json`: a root-relative path
 * on the gateway (`/remotes/public/mf-manifest.json`, the default) or an absolute http(s) URL (a CDN).
 */
export interface RemotesManifest {
  remotes: Record<string, string>;
  /**
   * The manifests of the remotes the server serves itself, as it serves them at their URLs: the shell
   * reads their pages and the federation runtime loads them from here, instead of fetching each
   * manifest before the first render. A remote not here (on a CDN) has its manifest fetched.
   */
  manifests?: Record<string, unknown>;
}

/** The default location of a remote's manifest: served by the gateway from its build folder. */
export function defaultManifestUrl(name: string): string {
  return `/remotes/${name}/mf-manifest.json`;
}

const REMOTE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/**
 * The Module Federation container name of a remote (its build's \`name\`, a global identifier):
 * \`clipit_public\` for \`public\`, which a JavaScript identifier could not be.
 */
export function containerName(remote: string): string {
  return `clipit_${remote.replace(/-/g, '_')}`;
}

/** Whether a remote name is usable as a federation container name and a URL segment. */
export function isRemoteName(name: string): boolean {
  return REMOTE_NAME.test(name);
}

function isManifestUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Reads a /remotes.json document, naming the first thing wrong with it. (The gateway, which writes
 * the document, checks FRONTEND_REMOTES by the same rules at boot; the browser tests hold the two together.)
 */
export function parseRemotesManifest(input: unknown): RemotesManifest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('remotes manifest must be a JSON object');
  const remotes = (input as { remotes?: unknown }).remotes;
  if (typeof remotes !== 'object' || remotes === null || Array.isArray(remotes)) {
    throw new Error('remotes manifest needs a "remotes" object mapping each remote name to its mf-manifest.json URL');
  }
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(remotes as Record<string, unknown>)) {
    if (!isRemoteName(name)) throw new Error(`remote name "${name}" must be lower-case letters, digits and dashes`);
    if (typeof url !== 'string' || !isManifestUrl(url)) {
      throw new Error(`remote "${name}" must map to a root-relative path or an http(s) URL of its mf-manifest.json`);
    }
    out[name] = url;
  }
  const manifests = (input as { manifests?: unknown }).manifests;
  if (manifests === undefined) return { remotes: out };
  if (typeof manifests !== 'object' || manifests === null || Array.isArray(manifests))
    throw new Error('"manifests" must map remote names to their manifests');
  for (const [name, manifest] of Object.entries(manifests as Record<string, unknown>)) {
    if (!(name in out)) throw new Error(`"manifests" has ${name}, which is not one of the remotes`);
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
      throw new Error(`"manifests.${name}" must be a manifest (a JSON object)`);
  }
  return { remotes: out, manifests: manifests as Record<string, unknown> };
}

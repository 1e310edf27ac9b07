// Where the browser finds each remote's mf-manifest.json in this environment: the document the gateway
// answers at GET /remotes.json is these defaults with FRONTEND_REMOTES' entries (config.ts) on top. (The
// format is @clipit/frontend-contracts' RemotesManifest; the browser tests hold the two together.)

/** The remotes the site is made of (REMOTE_NAMES in @clipit/frontend-contracts). */
export const REMOTE_NAMES = ['public', 'dashboard', 'admin'] as const;

/** Served by this gateway from the remote's build folder. */
export const defaultManifestUrl = (name: string) => `/remotes/${name}/mf-manifest.json`;

/** The GET /remotes.json document: every remote's manifest URL, the defaults overridden by FRONTEND_REMOTES. */
export function remotesDocument(overrides: Record<string, string>): { remotes: Record<string, string> } {
  const remotes: Record<string, string> = Object.fromEntries(REMOTE_NAMES.map((name) => [name, defaultManifestUrl(name)]));
  return { remotes: { ...remotes, ...overrides } };
}

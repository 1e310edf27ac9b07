// FRONTEND_REMOTES: where the browser finds each remote's mf-manifest.json in this environment. The
// document the gateway answers at GET /remotes.json is these defaults with the variable's entries on
// top. (The format is @clipit/frontend-contracts' RemotesManifest; the browser tests hold the two together.)
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/** The remotes the site is made of (REMOTE_NAMES in @clipit/frontend-contracts). */
export const REMOTE_NAMES = ['public', 'dashboard', 'admin'] as const;

export const REMOTE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** Served by this gateway from the remote's build folder. */
export const defaultManifestUrl = (name: string) => `/remotes/${name}/mf-manifest.json`;

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
 * The variable as written: empty (the defaults), a JSON object (`{"public":"https://cdn.example/public/mf-manifest.json"}`),
 * or the path of a file holding one. Overrides only: a remote it does not name keeps its default.
 */
export const frontendRemotes = z
  .string()
  .default('')
  .transform((raw, ctx): Record<string, string> => {
    if (raw === '') return {};
    let text = raw;
    if (!raw.startsWith('{')) {
      if (!existsSync(raw)) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object or the path of a file holding one (no such file)' });
        return z.NEVER;
      }
      text = readFileSync(raw, 'utf8');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object mapping remote names to mf-manifest.json URLs' });
      return z.NEVER;
    }
    const remotes: Record<string, string> = {};
    for (const [name, url] of Object.entries(parsed)) {
      if (!REMOTE_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', message: `remote "${name}": remote names are lower-case letters, digits and dashes` });
        return z.NEVER;
      }
      if (typeof url !== 'string' || !isManifestUrl(url)) {
        ctx.addIssue({
          code: 'custom',
          message: `remote "${name}" must map to a root-relative path or an http(s) URL of its mf-manifest.json`,
        });
        return z.NEVER;
      }
      remotes[name] = url;
    }
    return remotes;
  });

/** The GET /remotes.json document: every remote's manifest URL, the defaults overridden by FRONTEND_REMOTES. */
export function remotesDocument(overrides: Record<string, string>): { remotes: Record<string, string> } {
  const remotes: Record<string, string> = Object.fromEntries(REMOTE_NAMES.map((name) => [name, defaultManifestUrl(name)]));
  return { remotes: { ...remotes, ...overrides } };
}

// What the browser can start downloading with a page's HTML: the entry, route list and screen files of
// the remote that owns the page, read from that remote's mf-manifest.json (where the build lists each
// page's screen files), and sent as `Link: <…>; rel=preload` on the document. Without it the browser
// learns of them one round trip after another (the shell, /remotes.json, the manifests, the remote's
// entry, its routes, the screen); with it they arrive beside the shell's own scripts (docs/adr/0023).
// Only remotes this gateway serves itself are read; a remote on a CDN is left to the shell. A page that
// lists the API reads its screen makes first (`reads`) has those fetched with the HTML too, when its
// address has no query string (a query may change what the screen reads).

/** A remote's manifest as far as preloading goes. */
export interface ManifestForPreload {
  metaData?: { remoteEntry?: { name?: unknown; path?: unknown }; clipit?: { pages?: unknown } };
  exposes?: Array<{ path?: unknown; assets?: { js?: { sync?: unknown } } }>;
}

export interface PagePreloads {
  /** The page's path pattern (`/clipper/:userId`). */
  pattern: string;
  /** Site paths of the files to preload, in load order. */
  files: string[];
  /** The API reads of the page's screen at its plain address, `:param`s still in. */
  reads: string[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Each page of a remote served at `base` (`/remotes/public/`) with the files its first render needs:
 * the remote's entry, its `./routes` and `./version` chunks, then the page's screen files.
 * A manifest without pages (an older build) gives none.
 */
export function pagePreloadsOf(manifest: ManifestForPreload, base: string): PagePreloads[] {
  const entry = manifest.metaData?.remoteEntry;
  const entryName =
    typeof entry?.name === 'string'
      ? `${typeof entry.path === 'string' && entry.path ? `${entry.path.replace(/\/$/, '')}/` : ''}${entry.name}`
      : undefined;
  const exposed = (manifest.exposes ?? [])
    .filter((e) => e.path === './routes' || e.path === './version')
    .flatMap((e) => strings(e.assets?.js?.sync));
  const pages = Array.isArray(manifest.metaData?.clipit?.pages) ? (manifest.metaData.clipit.pages as unknown[]) : [];
  const common = [...(entryName ? [entryName] : []), ...exposed];
  return pages.flatMap((page) => {
    const p = page as { path?: unknown; assets?: unknown; reads?: unknown };
    if (typeof p.path !== 'string') return [];
    const reads = strings(p.reads).filter((read) => read.startsWith('/api/'));
    return [{ pattern: p.path, files: [...common, ...strings(p.assets)].map((file) => `${base}${file}`), reads }];
  });
}

/**
 * The shell's files its first render loads (its build's startup.json: `{ files }`, entry first), as
 * site paths: they go first, so the shell's own code is not queued behind the page's.
 */
export function shellStartupOf(startup: unknown): string[] {
  const files = strings((startup as { files?: unknown } | null)?.files);
  return files.filter((file) => /^[\w./-]+\.(js|css)$/.test(file) && !file.includes('..')).map((file) => `/${file}`);
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

/**
 * How specifically `pattern` matches `path` (higher is more specific), or -1: static segments over
 * `:param` segments over a final `*`, case-insensitive, as the site's router ranks them.
 */
export function matchScore(pattern: string, path: string): number {
  const want = segmentsOf(pattern);
  const have = segmentsOf(path);
  let score = want.length === 0 ? 2 : want.filter((s) => s !== '*').length || 1;
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i]!;
    if (w === '*' && i === want.length - 1) return score - 2;
    const h = have[i];
    if (h === undefined) return -1;
    if (w.startsWith(':')) score += 3;
    else if (w.toLowerCase() === h.toLowerCase()) score += 10;
    else return -1;
  }
  return have.length === want.length ? score : -1;
}

/** `read` with each `:param` replaced by the segment of `path` (decoded) in its place in `pattern`, encoded as the screens encode it. */
function filled(read: string, pattern: string, path: string): string {
  const want = segmentsOf(pattern);
  const have = segmentsOf(path);
  return read.replace(/:([A-Za-z_]\w*)/g, (whole, name: string) => {
    const at = want.indexOf(`:${name}`);
    const value = at >= 0 ? have[at] : undefined;
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

/**
 * What to preload for the page at `path` (with `search`, its query string, if any): the files of the
 * most specific page that matches it, then, at its plain address, its screen's API reads; else nothing.
 */
export function preloadsFor(pages: readonly PagePreloads[], path: string, search = ''): string[] {
  let best: PagePreloads | undefined;
  let bestScore = -1;
  for (const page of pages) {
    const score = matchScore(page.pattern, path);
    if (score > bestScore) {
      best = page;
      bestScore = score;
    }
  }
  if (!best) return [];
  const page = best;
  return [...page.files, ...(search === '' || search === '?' ? page.reads.map((read) => filled(read, page.pattern, path)) : [])];
}

const asOf = (file: string) =>
  file.startsWith('/api/')
    ? 'fetch; crossorigin=use-credentials'
    : file.endsWith('.css')
      ? 'style'
      : file.endsWith('.json')
        ? 'fetch; crossorigin'
        : 'script';

/**
 * The `Link` header value that preloads `files`: scripts, stylesheets, JSON the shell fetches
 * (`/remotes.json`, the manifests: `as=fetch; crossorigin`, which is how fetch() asks for them), and API
 * reads (`as=fetch; crossorigin=use-credentials`: the web apps call the API with credentials, and a
 * preload is only used by a request in the same credentials mode).
 */
export function linkHeader(files: readonly string[]): string {
  // An API read comes encoded (its path values were); a file name is encoded here.
  return files.map((file) => `<${file.startsWith('/api/') ? file : encodeURI(file)}>; rel=preload; as=${asOf(file)}`).join(', ');
}

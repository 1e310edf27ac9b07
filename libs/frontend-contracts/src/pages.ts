// What a remote's mf-manifest.json says about its pages (written at build by @clipit/frontend-build from
// the remote's `./routes`), so the shell knows which remote owns a path before it loads any remote: it
// loads only the owner of the page being opened before the first render, and the others when idle.

/** A page as the manifest lists it: the route's path, title and description, without its screen. */
export interface RemotePage {
  path: string;
  title: string;
  description: string;
  /** What the page's screen reads from the API on its first render (RemoteRoute['reads']); none when unlisted. */
  reads: string[];
}

/** Where the pages sit in mf-manifest.json: `metaData.clipit.pages`. */
export const MANIFEST_METADATA_KEY = 'clipit';

const isText = (value: unknown): value is string => typeof value === 'string';

/** The pages a remote's manifest lists, naming the first thing wrong (a manifest built before pages were listed has none). */
export function pagesOfManifest(manifest: unknown): RemotePage[] {
  const meta = (manifest as { metaData?: Record<string, unknown> } | null)?.metaData;
  if (typeof meta !== 'object' || meta === null) throw new Error('not a federation manifest: no metaData');
  const ours = meta[MANIFEST_METADATA_KEY] as { pages?: unknown } | undefined;
  if (ours === undefined)
    throw new Error(`the manifest lists no pages (metaData.${MANIFEST_METADATA_KEY} is missing: built before pages were listed?)`);
  return parsePages(ours.pages, `metaData.${MANIFEST_METADATA_KEY}.pages`);
}

/** A list of pages as a manifest (or /remotes.json, for the remotes the server read) gives it; `where` names it in errors. */
export function parsePages(pages: unknown, where: string): RemotePage[] {
  if (!Array.isArray(pages)) throw new Error(`${where} must be an array`);
  return pages.map((page: unknown, i) => {
    const p = page as Partial<RemotePage> | null;
    if (!p || !isText(p.path) || !p.path.startsWith('/') || !isText(p.title) || !isText(p.description)) {
      throw new Error(`${where}[${i}] needs an absolute path, a title and a description`);
    }
    const reads = p.reads ?? [];
    if (!Array.isArray(reads) || !reads.every((read) => isText(read) && read.startsWith('/api/'))) {
      throw new Error(`${where}[${i}].reads must list API paths (/api/…)`);
    }
    return { path: p.path, title: p.title, description: p.description, reads: [...reads] };
  });
}

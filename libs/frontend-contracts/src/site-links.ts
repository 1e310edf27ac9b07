import { LINKS_META_NAME, parseLinks, type SiteLinks } from './links.js';

/**
 * The site's outside links (the header's, and Buy $CLIP on the home page), as the shell's build wrote
 * them into index.html (defaults if it did not). Read each time: a few hundred bytes of JSON.
 */
export function siteLinks(): SiteLinks {
  return parseLinks(document.querySelector(`meta[name="${LINKS_META_NAME}"]`)?.getAttribute('content'));
}

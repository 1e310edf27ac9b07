import { LINKS_META_NAME, parseLinks, type SiteLinks } from './links.js';

let links: SiteLinks | undefined;

/** The header's outside links, as the build wrote them into index.html (defaults if it did not). */
export function siteLinks(): SiteLinks {
  links ??= parseLinks(document.querySelector(`meta[name="${LINKS_META_NAME}"]`)?.getAttribute('content'));
  return links;
}

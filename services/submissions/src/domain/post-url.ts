/**
 * Post links (spec 01 §5, spec 02 §2.4). A submission must link an X/Twitter post:
 * `https://{host}/{handle}/status/{numeric id}` on twitter.com or x.com, with or without `www.` or
 * `mobile.`, optionally followed by a path (`/photo/1`), a query or a fragment.
 */
const POST_URL = /^https?:\/\/(?:(?:www|mobile)\.)?(twitter\.com|x\.com)\/([A-Za-z0-9_]{1,15})\/status\/(\d{1,25})(?:[/?#].*)?$/i;

export interface PostRef {
  /** The numeric post id. */
  externalId: string;
  /** The handle in the link, as written. */
  authorHandle: string;
}

/** The post a link points at, or null when it is not an X/Twitter status link. */
export function parsePostUrl(url: string): PostRef | null {
  const match = POST_URL.exec(url.trim());
  if (!match) return null;
  return { authorHandle: match[2]!, externalId: match[3]! };
}

export type Platform = 'twitter' | 'instagram' | 'tiktok' | 'other';

/**
 * The platform a link belongs to, as the admin list shows it (spec 02 §2.4): twitter.com or x.com is
 * Twitter/X, then Instagram, TikTok, otherwise another platform. Hosts are matched on the domain, so
 * `www.`, `mobile.` and `vm.` forms count.
 */
export function platformOf(url: string): Platform {
  let host: string;
  try {
    host = new URL(url.trim()).hostname.toLowerCase();
  } catch {
    return 'other';
  }
  const is = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (is('twitter.com') || is('x.com')) return 'twitter';
  if (is('instagram.com')) return 'instagram';
  if (is('tiktok.com')) return 'tiktok';
  return 'other';
}

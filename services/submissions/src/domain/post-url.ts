export const PLATFORMS = ['twitter', 'instagram', 'tiktok', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

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

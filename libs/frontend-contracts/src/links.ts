// The outside links of the header (community chat, the three social accounts, the Buy $CLIP token
// page). They are configuration, not code: the shell's build reads CLIPIT_LINK_* from its environment
// and writes them into index.html as `<meta name="clipit:links" content="{…}">`, which the page reads
// at start. No imports and only erasable TypeScript: the shell's rspack.config.mjs (Node, type
// stripping) imports this file too, so the build and the page share one list of defaults and one parser;
// it lives here, beside the contracts, so a remote's screen reads the same links (Buy $CLIP on the home page).

export interface SiteLinks {
  /** The community chat. */
  chat: string;
  /** The X (Twitter) account. */
  x: string;
  telegram: string;
  discord: string;
  /** The $CLIP token's page on the token-launch site ("Buy $CLIP"). */
  buy: string;
}

export type LinkKey = keyof SiteLinks;

export const LINK_KEYS: readonly LinkKey[] = ['chat', 'x', 'telegram', 'discord', 'buy'];

/** The build environment variable of each link. */
export const LINK_ENV: Readonly<Record<LinkKey, string>> = {
  chat: 'CLIPIT_LINK_CHAT',
  x: 'CLIPIT_LINK_X',
  telegram: 'CLIPIT_LINK_TELEGRAM',
  discord: 'CLIPIT_LINK_DISCORD',
  buy: 'CLIPIT_LINK_BUY',
};

/** Used when a variable is unset or empty (also documented in frontends/README.md and deploy/.env.example). */
export const DEFAULT_LINKS: Readonly<SiteLinks> = {
  chat: 'https://t.me/clipitchat',
  x: 'https://x.com/clipit',
  telegram: 'https://t.me/clipit',
  discord: 'https://discord.gg/clipit',
  buy: 'https://pump.fun',
};

/** The name of the meta element the build writes and the page reads. */
export const LINKS_META_NAME = 'clipit:links';

/** Whether a value is an absolute http(s) URL (anything else never reaches an href). */
export function isLinkUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() !== value || value === '') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The links from a build environment: each CLIPIT_LINK_* when set, else its default. A value that is
 * set but not an http(s) URL is a mistake in the deploy, so the build fails naming it.
 */
export function linksFromEnv(env: Readonly<Record<string, string | undefined>>): SiteLinks {
  const links: SiteLinks = { ...DEFAULT_LINKS };
  for (const key of LINK_KEYS) {
    const name = LINK_ENV[key];
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!isLinkUrl(value)) throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
    links[key] = value;
  }
  return links;
}

/**
 * The links from the meta element's content (JSON). Page-side the page must keep working whatever
 * it finds: a missing or unreadable document, or a key that is not an http(s) URL, gives the default.
 */
export function parseLinks(content: string | null | undefined): SiteLinks {
  let input: unknown;
  try {
    input = content ? JSON.parse(content) : undefined;
  } catch {
    input = undefined;
  }
  const links: SiteLinks = { ...DEFAULT_LINKS };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return links;
  const record = input as Record<string, unknown>;
  for (const key of LINK_KEYS) {
    const value = record[key];
    if (isLinkUrl(value)) links[key] = value;
  }
  return links;
}

/** `content` of the meta element, HTML-escaped for a double-quoted attribute. */
export function linksMetaContent(links: SiteLinks): string {
  return JSON.stringify(links).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

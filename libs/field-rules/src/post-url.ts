import { HANDLE_CHARACTERS } from './handle.js';
import { problemText } from './problem.js';

// The X post a submission links (spec 01 §5; services/submissions' README): https or http, host
// twitter.com or x.com with or without `www.` or `mobile.`, then `{handle}/status/{numeric id}`,
// optionally followed by a path (`/photo/1`), a query or a fragment. The handle follows the handle
// rule (at most 15 characters); the id is a snowflake (19 digits today), allowed up to 25.
export const POST_URL_PATTERN = new RegExp(
  `^https?://(?:(?:www|mobile)\\.)?(?:twitter\\.com|x\\.com)/(${HANDLE_CHARACTERS})/status/(\\d{1,25})(?:[/?#].*)?$`,
  'i',
);

export interface PostRef {
  /** The handle in the link, as written. */
  authorHandle: string;
  /** The numeric post id. */
  externalId: string;
}

/** The post a link points at (the link trimmed first), or null when it is not an X/Twitter status link. */
export function parsePostUrl(url: string): PostRef | null {
  const match = POST_URL_PATTERN.exec(url.trim());
  if (!match) return null;
  return { authorHandle: match[1]!, externalId: match[2]! };
}

export const POST_PROBLEMS = {
  /** The clip title or the link is blank (the add-clip dialog's words). */
  missingInformation: { title: 'Missing Information', description: 'Please fill in the clip title and Twitter URL.' },
  invalidUrl: { title: 'Invalid Twitter URL', description: 'Please enter a valid Twitter/X post URL.' },
} as const;

export const POST_MESSAGES = {
  missingInformation: problemText(POST_PROBLEMS.missingInformation),
  invalidUrl: problemText(POST_PROBLEMS.invalidUrl),
} as const;

import { etagOf, type CachedRead } from './read-cache.js';
import type { FeedPageJson } from './feed.schemas.js';

// A signed-in reader's feed page is the shared page with `likedByCurrentUser` true on the clips they
// liked. Rather than a copy of the whole page re-serialised per reader, their bytes are the shared bytes
// with those few `false`s spliced to `true`: the same bytes JSON.stringify gives for the marked value.

const UNLIKED = Buffer.from('"likedByCurrentUser":false');
const LIKED = Buffer.from('"likedByCurrentUser":true');

/** Per shared page: where each clip's `"likedByCurrentUser":false` starts, in the clips' order (null: not found once per clip). */
const slotsOf = new WeakMap<CachedRead<FeedPageJson>, number[] | null>();

/**
 * Where each clip's `"likedByCurrentUser":false` starts in `body`, clip by clip, or undefined when the
 * bytes do not hold exactly one per clip. Only a key can match: inside a JSON string every `"` is escaped.
 */
export function likedSlots(body: Buffer, clipCount: number): number[] | undefined {
  const slots: number[] = [];
  for (let at = body.indexOf(UNLIKED); at >= 0; at = body.indexOf(UNLIKED, at + UNLIKED.length)) slots.push(at);
  return slots.length === clipCount ? slots : undefined;
}

/** JSON bytes and their ETag. */
export interface JsonBytes {
  body: Buffer;
  etag: string;
}

/**
 * The page as `liked`'s owner sees it: the shared answer itself when they liked none of its clips, else
 * its bytes with their clips marked, and the ETag of those bytes.
 */
export function overlayLiked(page: CachedRead<FeedPageJson>, liked: ReadonlySet<string>): JsonBytes {
  const clips = page.value.submissions;
  const marked: number[] = [];
  clips.forEach((clip, i) => {
    if (liked.has(clip.id) && !clip.likedByCurrentUser) marked.push(i);
  });
  if (marked.length === 0) return page;
  let slots = slotsOf.get(page);
  if (slots === undefined) {
    slots = likedSlots(page.body, clips.length) ?? null;
    slotsOf.set(page, slots);
  }
  if (slots === null) {
    // Bytes of another shape than expected: serialised again, never guessed at.
    const body = Buffer.from(
      JSON.stringify({ ...page.value, submissions: clips.map((c) => (liked.has(c.id) ? { ...c, likedByCurrentUser: true } : c)) }),
      'utf8',
    );
    return { body, etag: etagOf(body) };
  }
  const parts: Buffer[] = [];
  let from = 0;
  for (const i of marked) {
    parts.push(page.body.subarray(from, slots[i]), LIKED);
    from = slots[i]! + UNLIKED.length;
  }
  parts.push(page.body.subarray(from));
  const body = Buffer.concat(parts, page.body.length - marked.length);
  return { body, etag: etagOf(body) };
}

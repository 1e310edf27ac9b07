// Live notifications (spec 01 §4, §8): which streamers to announce when GET /api/followers/live
// answers, and what the browser notification says. Pure, so the rules are tested without a browser.

/** One entry of GET /api/followers/live (spec 01 §3: live streamer item). */
export interface LiveStreamer {
  id: string;
  displayName: string | null;
  twitterUsername: string | null;
  profileImageUrl: string | null;
}

/** Spec 01 §9: the live list is polled every 30000 ms (only while notifications are granted). */
export const LIVE_POLL_MS = 30_000;
export const LIVE_PATH = '/api/followers/live';
/** Server-sent events of followed streamers going live or offline; while it is open, the poll rests. */
export const LIVE_STREAM_PATH = '/api/live/stream';
/** The icon when the streamer has no profile image (shell's public/icon.png). */
export const FALLBACK_ICON = '/icon.png';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The live list as the page can use it: entries without an id are dropped, ids become strings, and
 * anything that is not a list reads as "nobody live known" (null), so a strange answer never notifies.
 */
export function parseLiveStreamers(input: unknown): LiveStreamer[] | null {
  if (!Array.isArray(input)) return null;
  const out: LiveStreamer[] = [];
  for (const item of input as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as Record<string, unknown>;
    const id = typeof entry['id'] === 'number' && Number.isFinite(entry['id']) ? String(entry['id']) : text(entry['id']);
    if (id === null) continue;
    out.push({
      id,
      displayName: text(entry['displayName']),
      twitterUsername: text(entry['twitterUsername']),
      profileImageUrl: text(entry['profileImageUrl']),
    });
  }
  return out;
}

export interface LiveDiff {
  /** Streamers to announce now: live, and not live at the previous answer. */
  notify: LiveStreamer[];
  /** The ids to remember for the next answer: exactly those live now. */
  live: Set<string>;
}

/**
 * Each live streamer is announced once; an id that leaves the list is forgotten, so a return is
 * announced again. An id listed twice in one answer is announced once.
 */
export function diffLive(previous: ReadonlySet<string>, current: readonly LiveStreamer[]): LiveDiff {
  const live = new Set<string>();
  const notify: LiveStreamer[] = [];
  for (const streamer of current) {
    if (live.has(streamer.id)) continue;
    live.add(streamer.id);
    if (!previous.has(streamer.id)) notify.push(streamer);
  }
  return { notify, live };
}

/** One event of the live stream, as the page uses it. */
export type LiveStreamMessage =
  { type: 'snapshot'; streamers: LiveStreamer[] } | { type: 'live'; streamer: LiveStreamer } | { type: 'offline'; id: string };

/** The stream's event as a message, or null for anything this page does not understand (ignored). */
export function parseLiveStreamMessage(event: string, data: string): LiveStreamMessage | null {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  if (event === 'snapshot') {
    const streamers = parseLiveStreamers(body);
    return streamers ? { type: 'snapshot', streamers } : null;
  }
  if (event === 'live') {
    const [streamer] = parseLiveStreamers([body]) ?? [];
    return streamer ? { type: 'live', streamer } : null;
  }
  if (event === 'offline') {
    const [gone] = parseLiveStreamers([body]) ?? [];
    return gone ? { type: 'offline', id: gone.id } : null;
  }
  return null;
}

/**
 * The same rule as the poll's (diffLive) for a stream message: a snapshot is a whole live list; a
 * streamer going live is announced unless already known live; one going offline is forgotten, so a
 * return is announced again.
 */
export function applyLiveMessage(previous: ReadonlySet<string>, message: LiveStreamMessage): LiveDiff {
  if (message.type === 'snapshot') return diffLive(previous, message.streamers);
  const live = new Set(previous);
  if (message.type === 'offline') {
    live.delete(message.id);
    return { notify: [], live };
  }
  if (live.has(message.streamer.id)) return { notify: [], live };
  live.add(message.streamer.id);
  return { notify: [message.streamer], live };
}

export interface LiveNotification {
  title: string;
  options: { body: string; icon: string; tag: string };
  /** Where a click on the notification goes. */
  path: string;
}

/** Spec 01 §8: '{displayName or twitterUsername} is now live!', 'Click to watch their stream'. */
export function liveNotification(streamer: LiveStreamer): LiveNotification {
  const name = streamer.displayName || streamer.twitterUsername || 'A streamer you follow';
  return {
    title: `${name} is now live!`,
    options: { body: 'Click to watch their stream', icon: streamer.profileImageUrl || FALLBACK_ICON, tag: `stream-${streamer.id}` },
    path: `/clipper/${encodeURIComponent(streamer.id)}`,
  };
}

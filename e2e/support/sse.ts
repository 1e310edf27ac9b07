// Reads a server-sent events stream as a browser's EventSource would (fields id, event, data; comment
// lines kept apart), for tests that hold GET /api/live/stream open.

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** When the frame was read (performance.now()). */
  at: number;
}

export interface SseStream {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  comments: string[];
  /** Resolves with the first event (from now or already read) that `match` accepts. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  /** True once the stream has ended. */
  readonly finished: boolean;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const name = colon < 0 ? line : line.slice(0, colon);
              fields[name] =
                (fields[name] !== undefined && name === 'data' ? `${fields[name]}\n` : '') + line.slice(colon + 1).replace(/^ /, '');
            }
          }
          if (fields['data'] !== undefined)
            events.push({ id: fields['id'], event: fields['event'] ?? 'message', data: fields['data'], at: performance.now() });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // aborted by close()
    }
    for (const wake of waiters) wake();
  })();
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended,
    get finished() {
      return finished;
    },
    close: () => controller.abort(),
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            cleanup();
            resolve(found);
          } else if (finished) {
            cleanup();
            reject(new Error(`the stream ended without the event (read: ${JSON.stringify(events.map((e) => e.event))})`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching event within ${timeoutMs} ms (read: ${JSON.stringify(events.map((e) => [e.event, e.data]))})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

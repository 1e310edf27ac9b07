// A server-sent events reader for the benchmarks that hold a gateway stream open (bench:social's live
// stream, bench:media's submission stream).

/**
 * Reads a server-sent events stream (fields event and data, comment lines skipped) as it arrives.
 * `next(match, from)` resolves with the first event at index `from` or later that `match` accepts.
 */
export async function openSse(url, headers) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const events = [];
  const waiters = new Set();
  let finished = false;
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            fields[name] = name === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value;
          }
          if (fields.data !== undefined) events.push({ event: fields.event ?? 'message', data: fields.data, at: performance.now() });
        }
        wakeAll();
      }
    } catch {
      // aborted by close()
    }
    finished = true;
    wakeAll();
  })();
  return {
    get length() {
      return events.length;
    },
    close: () => controller.abort(),
    next(match, from, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            done();
            resolve(found);
          } else if (finished) {
            done();
            reject(new Error(`the stream ended (read: ${JSON.stringify(events.slice(from).map((e) => e.event))})`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms (read: ${JSON.stringify(events.slice(from).map((e) => [e.event, e.data]))})`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

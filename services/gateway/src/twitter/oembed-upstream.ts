import { pickOembedFields, type Oembed } from './oembed.js';

/** What X said about a post: its embed, that it does not exist (or is not public), or nothing usable. */
export type UpstreamAnswer = { kind: 'found'; oembed: Oembed } | { kind: 'not-found' } | { kind: 'failed'; reason: string };

export interface OembedUpstreamOptions {
  /** X's oEmbed endpoint (OEMBED_URL). */
  endpoint: string;
  timeoutMs: number;
  userAgent: string;
}

/** X's answer is a few KB; anything far bigger is not an embed. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The one place the gateway calls X's oEmbed endpoint. Each call is a fresh request built here: the
 * link and our fixed parameters, `Accept` and our `User-Agent`, nothing of the browser's (no cookies,
 * no forwarded headers), no credentials; it gives up after `timeoutMs`.
 */
export class OembedUpstream {
  constructor(private readonly opts: OembedUpstreamOptions) {}

  async lookup(canonicalUrl: string): Promise<UpstreamAnswer> {
    const url = new URL(this.opts.endpoint);
    url.searchParams.set('url', canonicalUrl);
    // No widgets.js in the html, no tracking by X, and only the post (not the one it answers).
    url.searchParams.set('omit_script', '1');
    url.searchParams.set('dnt', 'true');
    url.searchParams.set('hide_thread', 'true');
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': this.opts.userAgent },
        credentials: 'omit',
        redirect: 'follow',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      return {
        kind: 'failed',
        reason: (err as Error).name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : String((err as Error).message),
      };
    }
    try {
      // Deleted, suspended or protected posts: X answers 404 or 403.
      if (response.status === 404 || response.status === 403) return { kind: 'not-found' };
      if (response.status !== 200) return { kind: 'failed', reason: `X answered ${response.status}` };
      const text = await readCapped(response, MAX_BODY_BYTES);
      if (text === null) return { kind: 'failed', reason: `answer over ${MAX_BODY_BYTES} bytes` };
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { kind: 'failed', reason: 'answer is not JSON' };
      }
      const oembed = pickOembedFields(parsed);
      return oembed ? { kind: 'found', oembed } : { kind: 'failed', reason: 'answer has no html' };
    } catch (err) {
      return {
        kind: 'failed',
        reason: (err as Error).name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : String((err as Error).message),
      };
    } finally {
      // An answer left unread keeps its connection busy.
      if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
    }
  }
}

/** The body as text, or null past `max` bytes (read no further). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

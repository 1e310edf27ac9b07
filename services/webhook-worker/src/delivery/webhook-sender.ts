import type { Readable } from 'node:stream';
import { request, type Agent } from 'undici';
import { recordAttempt, statusOutcome } from '../metrics.js';
import type { AttemptAnswer, DeliveryPoster, OutboundDelivery } from '../ports.js';
import type { Resolve } from './filtering-agent.js';
import { filteringAgent } from './filtering-agent.js';
import { attemptFailure, ERROR_MAX_CHARS, timedOut } from './failure-words.js';

/** How much of an answer's body the delivery log keeps; the rest is not read. */
export const EXCERPT_MAX_CHARS = 1024;

export interface WebhookSenderOptions {
  /** The whole attempt, from connecting to the last byte read (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Loopback addresses allowed (WEBHOOK_ALLOW_LOOPBACK): tests only. */
  allowLoopback: boolean;
  /** Name resolution (tests); dns.lookup by default. */
  resolve?: Resolve;
}

/**
 * POSTs deliveries through the filtering agent (delivery/filtering-agent.ts): every address is checked after
 * DNS, redirects are not followed, the whole attempt has one deadline, and at most the first 1,024 characters
 * of an answer are read. Whatever the endpoint does is an answer for the delivery log, never an exception:
 * a receiver's failure is its owner's to see, not this worker's to retry.
 */
export class WebhookSender implements DeliveryPoster {
  private readonly agent: Agent;

  constructor(private readonly opts: WebhookSenderOptions) {
    this.agent = filteringAgent({
      timeoutMs: opts.timeoutMs,
      allowLoopback: opts.allowLoopback,
      ...(opts.resolve ? { resolve: opts.resolve } : {}),
    });
  }

  async post(delivery: OutboundDelivery, signal: AbortSignal): Promise<AttemptAnswer> {
    const started = performance.now();
    const elapsedMs = () => Math.round(performance.now() - started);
    const deadline = AbortSignal.timeout(this.opts.timeoutMs);
    const both = AbortSignal.any([signal, deadline]);
    let answer;
    try {
      answer = await request(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: this.agent,
        signal: both,
      });
    } catch (err) {
      // The worker is shutting down: no attempt to state; the job goes back to the queue.
      if (signal.aborted) throw err;
      const latencyMs = elapsedMs();
      const failure = deadline.aborted ? timedOut(this.opts.timeoutMs) : attemptFailure(err, this.opts.timeoutMs);
      recordAttempt(failure.kind, latencyMs);
      return { ok: false, statusCode: null, latencyMs, error: failure.words, responseExcerpt: '' };
    }
    const latencyMs = elapsedMs();
    const { statusCode, headers, body } = answer;
    const responseExcerpt = await readExcerpt(body, EXCERPT_MAX_CHARS);
    recordAttempt(statusOutcome(statusCode), latencyMs);
    const redirected = statusCode >= 300 && statusCode < 400;
    return {
      ok: statusCode >= 200 && statusCode < 300,
      statusCode,
      latencyMs,
      error: redirected ? redirectWords(statusCode, headers['location']) : null,
      responseExcerpt,
    };
  }

  /** Closes the pooled connections (at shutdown, after the last job). */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** `Redirects are not followed (301 to https://…)`: the endpoint's URL should be the one it redirects to. */
function redirectWords(statusCode: number, location: string | string[] | undefined): string {
  const to = Array.isArray(location) ? location[0] : location;
  const words = to ? `Redirects are not followed (${statusCode} to ${to})` : `Redirects are not followed (${statusCode})`;
  return words.length > ERROR_MAX_CHARS ? `${words.slice(0, ERROR_MAX_CHARS - 2)}…)` : words;
}

/**
 * The first `max` characters of a body, then the body is dropped (its connection closed) instead of read to
 * its end. A body cut short (the deadline, a reset) gives what came before: the status already counts.
 */
async function readExcerpt(body: Readable, max: number): Promise<string> {
  let text = '';
  try {
    body.setEncoding('utf8');
    for await (const chunk of body) {
      text += chunk as string;
      if (text.length >= max) break;
    }
  } catch {
    // What arrived before the body broke off is the excerpt.
  } finally {
    body.destroy();
  }
  return text.slice(0, max);
}

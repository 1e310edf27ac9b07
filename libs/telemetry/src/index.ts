// What services import. Kept to the OpenTelemetry API (a no-op without the preload): the SDK itself is loaded
// only by `@clipit/telemetry/register`, and only when a collector is configured.
import { trace } from '@opentelemetry/api';
import { telemetryHandle } from './handle.js';

/** How long shutdown waits for the last spans to leave, within the service's own grace period. */
export const TELEMETRY_FLUSH_MS = 2_000;

/**
 * Sends the spans still queued and stops the exporter, waiting at most `timeoutMs`. A no-op when tracing
 * is off. Call it once the service has closed, so the spans of its last work are in the queue.
 */
export async function shutdownTelemetry(timeoutMs = TELEMETRY_FLUSH_MS): Promise<void> {
  const handle = telemetryHandle();
  if (!handle) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  // A collector that is down must not turn a clean stop into a failed one.
  await Promise.race([handle.shutdown().catch(() => undefined), late]);
  clearTimeout(timer);
}

/** The part of a Fastify request the hook below reads. */
export interface RoutedRequest {
  method: string;
  routeOptions: { url?: string | undefined };
}

/**
 * A Fastify `onRequest` hook: names the HTTP server span by its route (`GET /v1/clips/:id`, with
 * `http.route`) rather than by the method alone, and so without the ids a path holds. The span is the one
 * the HTTP instrumentation started; with tracing off or the request not sampled this does nothing.
 */
export function nameSpanByRoute(request: RoutedRequest, _reply: unknown, done: () => void): void {
  const route = request.routeOptions.url;
  const span = route === undefined ? undefined : trace.getActiveSpan();
  if (span?.isRecording()) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute('http.route', route!);
  }
  done();
}

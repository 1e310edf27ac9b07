import { cachedIsoTime, httpRequestDuration } from '@clipit/service-kit';
import { pino, type Logger } from 'pino';

type LineStream = { write(line: string): unknown };

/** Request logs holding lines not yet written: written out if the process exits first. */
const holding = new Set<RequestLog>();
process.once('exit', () => holding.forEach((log) => log.flush()));

/**
 * The request log and the latency histogram of every answered request, for Fastify's routes and for the
 * answers given at the front (fast-path.ts) alike. The line is the one `log.info({correlationId, method,
 * route, url?, status, durationMs}, 'request')` writes (same keys, order, level label, time and the
 * logger's bindings; a test compares them), built directly and written to the logger's own destination:
 * pino's general path (mixin, formatters, serializers) cost about 8 µs a line, as much as a tenth of a
 * cached answer. The lines of one turn of the event loop are written together at its end (one write
 * instead of one per request; on exit too): a request line may follow another log line written during
 * the same turn. Other log lines go through pino as usual.
 */
export class RequestLog {
  private readonly stream: LineStream;
  private readonly bindings: string;
  private readonly time = cachedIsoTime();
  private pending = '';

  constructor(private readonly log: Logger) {
    this.stream = (log as unknown as Record<symbol, LineStream>)[pino.symbols.streamSym]!;
    this.bindings = Object.entries(log.bindings())
      .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
      .join('');
  }

  /** `route` is the route's pattern; an unmatched request is logged with the start of its URL instead. */
  record(
    correlationId: string,
    method: string,
    route: string | undefined,
    url: string | undefined,
    status: number,
    durationMs: number,
  ): void {
    const label = route ?? 'unmatched';
    httpRequestDuration.observe({ method, route: label, status: String(status) }, durationMs / 1000);
    if (!this.log.isLevelEnabled('info')) return;
    if (this.pending === '') {
      holding.add(this);
      setImmediate(this.flushLater);
    }
    this.pending +=
      `{"level":"info"${this.time()}${this.bindings},"correlationId":${JSON.stringify(correlationId)},"method":${JSON.stringify(method)},` +
      `"route":${JSON.stringify(label)}${url !== undefined ? `,"url":${JSON.stringify(url.slice(0, 200))}` : ''},"status":${status},` +
      `"durationMs":${Math.round(durationMs * 100) / 100},"msg":"request"}\n`;
  }

  /** Writes the lines held so far. */
  flush(): void {
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    holding.delete(this);
    this.stream.write(lines);
  }

  private readonly flushLater = () => this.flush();
}

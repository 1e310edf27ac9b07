import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';

/** What the browser waits before reconnecting after the server ends a stream. */
const RETRY_MS = 3000;

export function sseFrame(event: string, data: unknown, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Takes the answer from Nest and sends an event stream's head (with the headers the request pipeline set)
 * and its `retry` line; answers the raw response to write frames to.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    // Proxies that buffer answers (nginx) would hold events back.
    'X-Accel-Buffering': 'no',
  });
  res.write(`retry: ${RETRY_MS}\n\n`);
  return res;
}

/** One open event stream of a signed-in user. */
export interface StreamClient {
  userId: string;
  res: ServerResponse;
  closed: boolean;
  /** The heartbeat and the end of the stream's life: cleared when it is dropped, however that happens. */
  timers: ReturnType<typeof setTimeout>[];
}

/**
 * The open streams of one kind on this replica, by user: registered until the browser goes, the server
 * ends them (their longest life, shutdown) or one stops reading (more than `maxBufferedBytes` waiting; its
 * browser reconnects). Counted in `gauge`.
 */
export class EventStreamClients<C extends StreamClient> {
  private readonly byUser = new Map<string, Set<C>>();

  constructor(private readonly opts: { name: string; gauge: Gauge; log: Logger; maxBufferedBytes: number }) {}

  /** How many streams `userId` holds open here. */
  openFor(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Whether any stream is open here (a replica with none has nothing to write an event to). */
  get empty(): boolean {
    return this.byUser.size === 0;
  }

  /** The users with a stream open here. */
  users(): string[] {
    return [...this.byUser.keys()];
  }

  of(userId: string): Iterable<C> {
    return this.byUser.get(userId) ?? [];
  }

  add(client: C): void {
    let set = this.byUser.get(client.userId);
    if (!set) this.byUser.set(client.userId, (set = new Set()));
    set.add(client);
    this.opts.gauge.inc();
    client.res.on('close', () => this.drop(client));
  }

  /** A comment line every `heartbeatSeconds` (proxies close streams that say nothing), and the end after `maxSeconds`. */
  keepAlive(client: C, heartbeatSeconds: number, maxSeconds: number): void {
    if (client.closed) return;
    client.timers.push(setInterval(() => this.write(client, ': heartbeat\n\n'), heartbeatSeconds * 1000));
    // The browser comes back, and its session is checked again.
    client.timers.push(setTimeout(() => this.drop(client), maxSeconds * 1000));
  }

  write(client: C, frame: string): void {
    if (client.closed) return;
    client.res.write(frame);
    if (client.res.writableLength > this.opts.maxBufferedBytes) {
      this.opts.log.warn({ userId: client.userId }, `${this.opts.name}: a stream that does not read was closed`);
      this.drop(client);
    }
  }

  drop(client: C): void {
    if (client.closed) return;
    client.closed = true;
    for (const timer of client.timers) clearTimeout(timer);
    this.opts.gauge.dec();
    const set = this.byUser.get(client.userId);
    set?.delete(client);
    if (set?.size === 0) this.byUser.delete(client.userId);
    if (!client.res.writableEnded) client.res.end();
  }

  dropAll(): void {
    for (const set of [...this.byUser.values()]) for (const client of [...set]) this.drop(client);
  }
}

import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the receiver got it: the raw body, exactly as it came, and the headers as Node gives them. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How the receiver answers a path; it has the request's body already. */
export type Answer = (res: ServerResponse, req: ReceivedRequest) => void;

const TLS_DIR = new URL('./tls/', import.meta.url);

/**
 * A webhook receiver in the test's process: node:http (or https, with the self-signed certificate for
 * localhost in ./tls, which the worker must refuse) on 127.0.0.1, recording every connection and request.
 * Each path answers as told (`on`), 200 by default.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** TCP connections accepted, requests or not. */
  connections = 0;
  private readonly answers = new Map<string, Answer>();
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  constructor(private readonly opts: { tls?: boolean } = {}) {
    const handle = (req: IncomingMessage, res: ServerResponse) => this.handle(req, res);
    this.server = opts.tls
      ? createHttpsServer(
          { key: readFileSync(new URL('localhost.key.pem', TLS_DIR)), cert: readFileSync(new URL('localhost.cert.pem', TLS_DIR)) },
          handle,
        )
      : createHttpServer(handle);
    this.server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The URL of `path` on this receiver, by address (`127.0.0.1`) or by another host name that reaches it (`localhost`). */
  url(path: string, host = '127.0.0.1'): string {
    return `${this.opts.tls ? 'https' : 'http'}://${host}:${this.port}${path}`;
  }

  on(path: string, answer: Answer): this {
    this.answers.set(path, answer);
    return this;
  }

  requestsTo(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      this.requests.push(received);
      const answer = this.answers.get(received.path) ?? ((r: ServerResponse) => r.end('ok'));
      answer(res, received);
    });
  }
}

import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (Redis, a gRPC server), so a test can take the server away
 * from one client and give it back: `refuse()` drops every relayed connection and hangs up on new ones
 * (the client sees its server go away, and every reconnect fail), `stall()` stops carrying bytes on
 * every connection and answers nothing on new ones, all kept open (a server that hangs), `restore()`
 * relays again.
 * The port stays bound throughout, so nothing else can take it meanwhile.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  /** Relayed connections: client socket → upstream socket. */
  private readonly relayed = new Map<Socket, Socket>();
  private readonly server: Server;
  private mode: 'relay' | 'refuse' | 'stall' = 'relay';
  port = 0;
  /** Connections clients opened (or tried to: refused ones count too). */
  attempts = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.relay(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.port = (proxy.server.address() as { port: number }).port;
    return proxy;
  }

  private relay(client: Socket): void {
    this.attempts += 1;
    if (this.mode === 'refuse') {
      client.destroy();
      return;
    }
    this.track(client);
    if (this.mode === 'stall') {
      // Read and drop whatever the client sends, answer nothing, until refuse() or close().
      client.resume();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    this.relayed.set(client, upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => {
      this.relayed.delete(client);
      upstream.destroy();
    });
    upstream.once('close', () => client.destroy());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined); // a dropped peer shows up as a close on the other side
  }

  /** The relayed server as `redis://127.0.0.1:<port>`. */
  get redisUrl(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The relayed server as `127.0.0.1:<port>` (a gRPC address). */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  refuse(): void {
    this.mode = 'refuse';
    for (const s of this.sockets) s.destroy();
  }

  /** Bytes stop flowing both ways on every connection, which all stay open; new ones are accepted and left unanswered. */
  stall(): void {
    this.mode = 'stall';
    for (const [client, upstream] of this.relayed) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      // Flowing with no reader: what either side sends from now on is dropped.
      client.resume();
      upstream.resume();
    }
  }

  restore(): void {
    this.mode = 'relay';
  }

  async close(): Promise<void> {
    this.refuse();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

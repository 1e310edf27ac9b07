import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (Redis here), so a test can take the server away from one
 * client and give it back: `refuse()` drops every relayed connection and hangs up on new ones
 * (the client sees its server go away, and every reconnect fail), `restore()` relays again.
 * The port stays bound throughout, so nothing else can take it meanwhile.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private refusing = false;
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
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
      s.on('error', () => undefined); // a dropped peer shows up as a close on the other side
    }
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }

  /** The relayed server as `redis://127.0.0.1:<port>`. */
  get redisUrl(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  refuse(): void {
    this.refusing = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.refuse();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

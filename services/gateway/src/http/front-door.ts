import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/** Answers a request before Fastify sees it, or returns false to leave it to Fastify. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const fronts = new WeakMap<Server, { handle: FrontHandler | undefined }>();

/** The parts of Fastify's options its own HTTP/1 server is made with. */
interface FastifyServerOptions {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number;
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make (same timeouts), whose requests
 * first meet a front handler once one is set (setFrontHandler). The gateway's front answers public
 * reads from its read cache with the bytes it already holds, at the cost of a bare server; every other
 * request goes to Fastify untouched.
 */
export function serverWithFront(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  fastifyOptions: Record<string, unknown>,
): Server {
  const options = fastifyOptions as unknown as FastifyServerOptions;
  const slot: { handle: FrontHandler | undefined } = { handle: undefined };
  const server = createServer(options.http ?? {}, (req, res) => {
    if (slot.handle?.(req, res)) return;
    handler(req, res);
  });
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0)
    server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  fronts.set(server, slot);
  return server;
}

/** Puts `handle` in front of Fastify on a server made by serverWithFront. */
export function setFrontHandler(server: Server, handle: FrontHandler): void {
  const slot = fronts.get(server);
  if (!slot) throw new Error('setFrontHandler: this server was not made by serverWithFront');
  slot.handle = handle;
}

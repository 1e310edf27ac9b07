import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BAD_REQUEST, HEADERS_TOO_LARGE, PATH_NOT_VALID, PATH_TOO_LONG, REQUEST_TIMEOUT, SOMETHING_WENT_WRONG } from './messages.js';

// Failures raised before any route or hook runs, so the global filter never sees them: Fastify's
// defaults answer them in JSON. Ours keep the contract (text/plain a person can read) for them too.

const TEXT = 'text/plain; charset=utf-8';

const ROUTER_ERRORS: Record<string, readonly [number, string]> = {
  // A path parameter over routerOptions.maxParamLength (e.g. a 10,000-character upload id).
  FST_ERR_MAX_PARAM_LENGTH: [414, PATH_TOO_LONG],
  // A path whose percent-encoding does not decode.
  FST_ERR_BAD_URL: [400, PATH_NOT_VALID],
};

/** The raw response of Fastify's reply (the reply's own generics differ between the adapter's and the app's server types). */
interface RawReply {
  raw: { writeHead(status: number, headers: Record<string, string | number>): unknown; end(body: string): unknown };
}

/** Fastify's `frameworkErrors` option: what the router refuses before routing (written raw, as Fastify's default does). */
export function answerRouterError(error: { code: string }, _request: unknown, reply: RawReply): void {
  // Anything else here (async constraints, which no route uses) is ours to fix, not the client's.
  const [status, message] = ROUTER_ERRORS[error.code] ?? [500, SOMETHING_WENT_WRONG];
  reply.raw.writeHead(status, {
    'Content-Type': TEXT,
    'Content-Length': Buffer.byteLength(message),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  reply.raw.end(message);
}

/** The answer to a request Node's HTTP parser could not read (no Fastify request exists yet). */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: REQUEST_TIMEOUT };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: HEADERS_TOO_LARGE };
  return { status: 400, message: BAD_REQUEST };
}

/** Fastify's `clientErrorHandler` option: written straight to the socket, as Node itself does, then closed. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = clientErrorAnswer(err.code);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${TEXT}\r\nContent-Length: ${Buffer.byteLength(message)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${message}`,
    );
  }
  socket.destroy(err);
}

// The edge's HTTP server span (ADR 0054, section 3, as built). instrumentation-http's own server side wraps every
// request of every server (a rest-argument wrapper, a suppressed context entered, the request and the response
// bound to it) before it even asks whether to trace it, and that cost most of a cached page's time at 1 %. Here a
// request the edge drops runs exactly as it would with tracing off: no context entered, nothing bound, no span;
// with no span around them the instrumentations make none (the sampler drops any other root). Only a request the
// edge keeps gets a server span, with the stable HTTP semantic conventions, and its events run in it (its body's
// through a bound request, the response's because they follow from writes made in the span).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import process from 'node:process';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  propagation,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { isProbeOrScrape } from './instrumentations.js';

/** The instrumentation scope of the edge's server spans. */
export const EDGE_HTTP_SCOPE = '@clipit/telemetry/http-server';

/**
 * Wraps `emit` of node:http's and node:https's servers: a `request` event is traced only if `keeps` says so (never
 * a probe or a scrape, which it is not asked about). Answers a function that puts `emit` back.
 */
export function traceKeptRequests(tracer: Tracer, keeps: (request: IncomingMessage) => boolean): () => void {
  const undo: (() => void)[] = [];
  for (const id of ['node:http', 'node:https'] as const) {
    const prototype = process.getBuiltinModule(id).Server.prototype as unknown as { emit: (...args: unknown[]) => boolean };
    const emit = prototype.emit;
    const scheme = id === 'node:https' ? 'https' : 'http';
    prototype.emit = function emitTracingKept(this: Server, event: unknown, request?: unknown, response?: unknown) {
      // `arguments`, not a rest parameter: the common path allocates nothing.
      // eslint-disable-next-line prefer-rest-params
      if (event !== 'request' || !kept(request as IncomingMessage, keeps)) return emit.apply(this, arguments as unknown as unknown[]);
      const req = request as IncomingMessage;
      const res = response as ServerResponse;
      const parent = propagation.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const span = tracer.startSpan(req.method ?? 'GET', { kind: SpanKind.SERVER, attributes: requestAttributes(req, scheme) }, parent);
      const ctx = trace.setSpan(parent, span);
      endWithResponse(span, res);
      // A body's chunks come from the connection's parser, in the context the connection was opened in: the
      // request is bound so that they, and what they call, run in the span. Nothing else is bound. On Node 24
      // (the preload refuses an older one) a callback runs in the context it was scheduled in, so the response's
      // events, which follow from writes made in the span, run in it already; and binding an emitter replaces
      // its methods on the object itself, which at 1 % cost every answer of a cached page several per cent
      // (`npm run bench:tracing-paired`): V8's code for Node's HTTP functions then meets more than one shape.
      if (hasBody(req)) context.bind(ctx, req);
      // eslint-disable-next-line prefer-rest-params
      const args = arguments as unknown as unknown[];
      return context.with(ctx, () => emit.apply(this, args));
    };
    undo.push(() => (prototype.emit = emit));
  }
  return () => undo.forEach((restore) => restore());
}

/** Whether a request says it has a body (RFC 9112, section 6.3): a transfer coding, or a length other than 0. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function kept(request: IncomingMessage, keeps: (request: IncomingMessage) => boolean): boolean {
  return !isProbeOrScrape(request.url) && keeps(request);
}

/**
 * What is known when the request arrives: never its query (it may hold user data), nor a header's value but the agent.
 * Nor the peer's address (`network.peer.address`, recommended, not required): Node reads it once per connection and
 * keeps it as a property it adds to the socket, so every connection that had a kept request would get a second
 * shape, and V8's code for Node's socket and HTTP functions would then meet two kinds of socket on every answer,
 * kept or not. At 1 %, one stack alone on the machine, that was more than half of what tracing cost the cached page
 * (ADR 0054, as built). Behind the ingress it would name the proxy anyway.
 */
export function requestAttributes(req: IncomingMessage, scheme: 'http' | 'https'): Attributes {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const attributes: Attributes = {
    'http.request.method': req.method ?? 'GET',
    'url.scheme': scheme,
    'url.path': query === -1 ? url : url.slice(0, query),
    'network.protocol.version': req.httpVersion,
  };
  const host = req.headers.host;
  if (host !== undefined) {
    const { address, port } = splitHost(host);
    attributes['server.address'] = address;
    if (port !== undefined) attributes['server.port'] = port;
  }
  const agent = req.headers['user-agent'];
  if (agent !== undefined) attributes['user_agent.original'] = agent;
  return attributes;
}

function splitHost(host: string): { address: string; port?: number } {
  // [::1]:8080, example.org:8080, example.org
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.indexOf(':', close === -1 ? 0 : close);
  if (colon === -1) return { address: close === -1 ? host : host.slice(1, close) };
  const port = Number(host.slice(colon + 1));
  return { address: close === -1 ? host.slice(0, colon) : host.slice(1, close), ...(Number.isInteger(port) && port > 0 ? { port } : {}) };
}

/** Ends the span when the response is sent (its status: an error from 500 on), or when the connection closes first. */
function endWithResponse(span: Span, res: ServerResponse): void {
  let ended = false;
  const end = (aborted: boolean) => {
    if (ended) return;
    ended = true;
    const status = res.statusCode;
    if (aborted && !res.writableFinished) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the response was sent' });
    } else {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  };
  res.once('finish', () => end(false));
  res.once('close', () => end(true));
}

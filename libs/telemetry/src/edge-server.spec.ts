import { createServer, request, Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { EdgeContextManager, EdgePropagator } from './edge-context.js';
import { EDGE_HTTP_SCOPE, traceKeptRequests } from './edge-server.js';

interface Seen {
  traceId: string | undefined;
  untraced: boolean;
  /** Whether the request's emitter methods were replaced (the context manager binds a kept request with a body only). */
  bound: boolean;
}

/** What a listener of the response's `finish`, added when the request came, saw; and whether the response was bound. */
interface Finished {
  traceId: string | undefined;
  bound: boolean;
}

describe("the edge's HTTP server spans", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const asked: string[] = [];
  let restore: () => void = () => undefined;
  let server: Server;
  let url = '';
  // What the handler saw of the context, at the request's start and when its body ended (later events).
  const seen = new Map<string, { atStart: Seen; atEnd: Seen }>();
  const finished = new Map<string, Finished>();
  // The own properties of each request's connection, when its handler ran.
  const socketKeys = new Map<string, string[]>();
  const now = (req: IncomingMessage): Seen => ({
    traceId: trace.getSpanContext(context.active())?.traceId,
    untraced: isTracingSuppressed(context.active()),
    bound: Object.hasOwn(req, 'on'),
  });

  beforeAll(async () => {
    context.setGlobalContextManager(new EdgeContextManager().enable());
    propagation.setGlobalPropagator(new EdgePropagator());
    restore = traceKeptRequests(provider.getTracer(EDGE_HTTP_SCOPE), (req) => {
      asked.push(req.url!);
      return req.url!.includes('keep');
    });
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const atStart = now(req);
      socketKeys.set(req.headers['x-test']! as string, Object.keys(req.socket));
      res.on('finish', () =>
        finished.set(req.headers['x-test']! as string, {
          traceId: trace.getSpanContext(context.active())?.traceId,
          bound: Object.hasOwn(res, 'on'),
        }),
      );
      req.on('data', () => undefined);
      req.on('end', () => {
        seen.set(req.headers['x-test']! as string, { atStart, atEnd: now(req) });
        if (req.url!.includes('hang')) return void res.socket?.destroy();
        res.statusCode = req.url!.includes('fail') ? 503 : 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    restore();
    await new Promise((resolve) => server.close(resolve));
    await provider.shutdown();
    propagation.disable();
    context.disable();
  });

  beforeEach(() => {
    exporter.reset();
    asked.length = 0;
  });

  /** A request whose body (if any) leaves 30 ms after its head, so the handler reads it from later events. */
  const send = (
    path: string,
    test: string,
    opts: { method?: string; body?: string; headers?: Record<string, string>; newConnection?: boolean } = {},
  ) =>
    new Promise<number>((resolve) => {
      const body = opts.body ?? '';
      const headers = { 'x-test': test, 'content-length': String(body.length), 'user-agent': 'edge-test', ...opts.headers };
      const agent = opts.newConnection ? { agent: false } : {};
      const req = request(`${url}${path}`, { method: opts.method ?? 'GET', headers, ...agent }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode!));
      });
      req.on('error', () => resolve(0));
      req.flushHeaders();
      setTimeout(() => req.end(body), 30);
    });

  /** The spans ended so far, once the server span of the last request has ended. */
  const spans = async (count: number) => {
    for (let i = 0; i < 100 && exporter.getFinishedSpans().length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
    return exporter.getFinishedSpans();
  };

  it('gives a kept request a server span, which its handler and its later events run in', async () => {
    expect(await send('/items/1?keep=1&token=secret', 'kept', { method: 'POST', body: '{}' })).toBe(200);
    const [span] = await spans(1);
    expect(span).toBeDefined();
    expect({ name: span!.name, kind: span!.kind, scope: span!.instrumentationScope.name, parent: span!.parentSpanContext }).toEqual({
      name: 'POST',
      kind: SpanKind.SERVER,
      scope: EDGE_HTTP_SCOPE,
      parent: undefined,
    });
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.scheme': 'http',
      'url.path': '/items/1',
      'network.protocol.version': '1.1',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(url).port),
      'user_agent.original': 'edge-test',
      'http.response.status_code': 200,
    });
    // The query (it may hold a secret) is not in the span.
    expect(JSON.stringify(span!.attributes)).not.toContain('secret');
    const traceId = span!.spanContext().traceId;
    expect(seen.get('kept')).toEqual({
      atStart: { traceId, untraced: false, bound: true },
      atEnd: { traceId, untraced: false, bound: true },
    });
    // The response is not bound: its events follow from writes made in the span, and run in it.
    expect(finished.get('kept')).toEqual({ traceId, bound: false });
  });

  it("leaves a kept request's connection with the properties a dropped one has", async () => {
    // A property added to a long-lived socket (as reading its peer's address does) would give every connection that
    // had a kept request a second shape, which V8's code for Node's socket functions then meets on every answer.
    expect(await send('/items/4', 'dropped on its own connection', { newConnection: true })).toBe(200);
    expect(await send('/items/4?keep=1', 'kept on its own connection', { newConnection: true })).toBe(200);
    await spans(1);
    expect(socketKeys.get('kept on its own connection')).toEqual(socketKeys.get('dropped on its own connection'));
  });

  it('binds nothing of a kept request without a body, whose events run in its span all the same', async () => {
    expect(await send('/items/3?keep=1', 'kept without a body')).toBe(200);
    const [span] = await spans(1);
    const traceId = span!.spanContext().traceId;
    expect(seen.get('kept without a body')).toEqual({
      atStart: { traceId, untraced: false, bound: false },
      atEnd: { traceId, untraced: false, bound: false },
    });
    expect(finished.get('kept without a body')).toEqual({ traceId, bound: false });
  });

  it("continues a caller's trace context", async () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await send('/keep', 'child', { headers: { traceparent: parent } });
    const [span] = await spans(1);
    expect([span!.spanContext().traceId, span!.parentSpanContext?.spanId]).toEqual([
      '0af7651916cd43dd8448eb211c80319c',
      'b7ad6b7169203331',
    ]);
  });

  it('runs a dropped request exactly as with tracing off: no span, no context entered, nothing bound', async () => {
    expect(await send('/items/2', 'dropped', { method: 'POST', body: '{}' })).toBe(200);
    await new Promise((r) => setTimeout(r, 30));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seen.get('dropped')).toEqual({
      atStart: { traceId: undefined, untraced: false, bound: false },
      atEnd: { traceId: undefined, untraced: false, bound: false },
    });
    expect(asked).toEqual(['/items/2']);
  });

  it('never traces a probe or a scrape, and does not ask the edge about one', async () => {
    for (const path of ['/health/live?keep', '/health/ready?keep', '/metrics?keep']) await send(path, path);
    await new Promise((r) => setTimeout(r, 30));
    expect([exporter.getFinishedSpans(), asked]).toEqual([[], []]);
  });

  it('marks a 5xx answer as an error, and a connection closed before the answer too', async () => {
    expect(await send('/keep/fail', 'fail')).toBe(503);
    await send('/keep/hang', 'hang');
    const ended = await spans(2);
    const byPath = Object.fromEntries(ended.map((s) => [s.attributes['url.path'], s]));
    expect([byPath['/keep/fail']!.status, byPath['/keep/fail']!.attributes['error.type']]).toEqual([{ code: SpanStatusCode.ERROR }, '503']);
    expect(byPath['/keep/hang']!.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'the connection closed before the response was sent',
    });
    expect(byPath['/keep/hang']!.attributes['http.response.status_code']).toBeUndefined();
  });

  it('puts emit back when restored', () => {
    const patched = Server.prototype.emit;
    restore();
    expect(Server.prototype.emit).not.toBe(patched);
    restore = traceKeptRequests(provider.getTracer(EDGE_HTTP_SCOPE), (req) => req.url!.includes('keep'));
  });
});

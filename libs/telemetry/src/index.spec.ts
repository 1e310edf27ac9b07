import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { setTelemetryHandle } from './handle.js';
import { nameSpanByRoute, shutdownTelemetry } from './index.js';

const clearHandle = () => {
  (globalThis as Record<symbol, unknown>)[Symbol.for('clipit.telemetry')] = undefined;
};

describe('nameSpanByRoute: the HTTP server span named by its Fastify route', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('test');

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(async () => {
    context.disable();
    await provider.shutdown();
  });

  function run(route: string | undefined, withSpan: boolean): { name: string | undefined; route: unknown; done: boolean } {
    let done = false;
    const request = { method: 'GET', routeOptions: { url: route } };
    if (!withSpan) {
      nameSpanByRoute(request, {}, () => (done = true));
      return { name: undefined, route: undefined, done };
    }
    const span = tracer.startSpan('GET');
    context.with(trace.setSpan(context.active(), span), () => nameSpanByRoute(request, {}, () => (done = true)));
    span.end();
    const finished = exporter.getFinishedSpans().at(-1)!;
    return { name: finished.name, route: finished.attributes['http.route'], done };
  }

  it('names the active span `METHOD route` and sets http.route, with no id of the path in it', () => {
    expect(run('/v1/clips/:id', true)).toEqual({ name: 'GET /v1/clips/:id', route: '/v1/clips/:id', done: true });
  });

  it('leaves a request no route matched (a 404) as it is', () => {
    expect(run(undefined, true)).toEqual({ name: 'GET', route: undefined, done: true });
  });

  it('does nothing but continue with no span (tracing off)', () => {
    expect(run('/v1/clips/:id', false).done).toBe(true);
  });
});

describe('shutdownTelemetry', () => {
  afterEach(clearHandle);

  it('is a no-op with tracing off', async () => {
    clearHandle();
    await expect(shutdownTelemetry()).resolves.toBeUndefined();
  });

  it('shuts the running SDK down', async () => {
    let calls = 0;
    setTelemetryHandle({ shutdown: async () => void (calls += 1) });
    await shutdownTelemetry();
    expect(calls).toBe(1);
  });

  it('gives up after its time limit when the collector does not answer', async () => {
    setTelemetryHandle({ shutdown: () => new Promise<void>(() => undefined) });
    const started = Date.now();
    await shutdownTelemetry(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('never fails a clean stop when the export fails', async () => {
    setTelemetryHandle({ shutdown: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    await expect(shutdownTelemetry()).resolves.toBeUndefined();
  });
});

import * as grpc from '@grpc/grpc-js';
import { context, propagation, trace } from '@opentelemetry/api';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { EdgeContextManager, EdgePropagator } from './edge-context.js';
import { untracedCallsUnwrapped } from './grpc-untraced.js';

type Reply = { wrapped: boolean };

// instrumentation-grpc's server and client patches, as the preload's module hook would apply them, on a real grpc-js
// server and client.
describe('gRPC calls outside a trace', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const instrumentation = untracedCallsUnwrapped(new GrpcInstrumentation({ enabled: false }));
  instrumentation.setTracerProvider(provider);
  const service: grpc.ServiceDefinition = {
    Echo: {
      path: '/test.Chain/Echo',
      requestStream: false,
      responseStream: false,
      requestSerialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
      requestDeserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown,
      responseSerialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
      responseDeserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown,
    },
  };
  let server: grpc.Server;
  let client: grpc.Client;

  beforeAll(async () => {
    context.setGlobalContextManager(new EdgeContextManager().enable());
    propagation.setGlobalPropagator(new EdgePropagator());
    server = new grpc.Server();
    const patch = (instrumentation as unknown as { _patchServer: () => (original: unknown) => grpc.Server['register'] })._patchServer();
    server.register = patch(grpc.Server.prototype.register);
    server.addService(service, {
      // Whether the instrumentation's wrapper ran: it replaces the call's sendMetadata on the call itself.
      Echo: (call: grpc.ServerUnaryCall<unknown, Reply>, callback: grpc.sendUnaryData<Reply>) =>
        callback(null, { wrapped: Object.hasOwn(call, 'sendMetadata') }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const Client = grpc.makeGenericClientConstructor(service, 'Chain');
    const patchMethod = (
      instrumentation as unknown as { _getPatchedClientMethods: (lib: unknown) => (original: unknown) => unknown }
    )._getPatchedClientMethods(grpc);
    const prototype = Client.prototype as unknown as Record<string, unknown>;
    prototype['Echo'] = patchMethod(prototype['Echo']);
    client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    await provider.shutdown();
    propagation.disable();
    context.disable();
  });

  const echo = (metadata: grpc.Metadata) =>
    new Promise<Reply>((resolve, reject) =>
      (client as unknown as { Echo: (r: unknown, m: grpc.Metadata, cb: grpc.requestCallback<Reply>) => void }).Echo(
        {},
        metadata,
        (err, reply) => (err ? reject(err) : resolve(reply!)),
      ),
    );

  it('are made as grpc-js makes them when no span is active: no client span, no trace context sent', async () => {
    exporter.reset();
    // Sampled always: a call the instrumentation saw would be a root client span.
    expect(await echo(new grpc.Metadata())).toEqual({ wrapped: false });
    expect(exporter.getFinishedSpans()).toEqual([]);
    // Its generated method still carries what grpc-js put on it.
    expect((client as unknown as { Echo: { path: string } }).Echo.path).toBe('/test.Chain/Echo');
  });

  it('are made through the instrumentation under an active span, which the server continues', async () => {
    exporter.reset();
    const parent = provider.getTracer('test').startSpan('edge');
    expect(await context.with(trace.setSpan(context.active(), parent), () => echo(new grpc.Metadata()))).toEqual({ wrapped: true });
    parent.end();
    const spans = exporter.getFinishedSpans();
    const traceId = parent.spanContext().traceId;
    expect(spans.map((s) => [s.name, s.spanContext().traceId]).sort()).toEqual([
      ['edge', traceId],
      ['grpc.test.Chain/Echo', traceId],
      ['grpc.test.Chain/Echo', traceId],
    ]);
  });

  it('run the handler as registered when they bring no trace context: no wrapper, no span', async () => {
    exporter.reset();
    expect(await echo(new grpc.Metadata())).toEqual({ wrapped: false });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("go through the instrumentation when they bring one, in a server span under the caller's", async () => {
    exporter.reset();
    const metadata = new grpc.Metadata();
    metadata.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(await echo(metadata)).toEqual({ wrapped: true });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.spanContext().traceId])).toEqual([['grpc.test.Chain/Echo', '0af7651916cd43dd8448eb211c80319c']]);
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { ThreadExporter } from './export-thread.js';

/** Two finished spans, as the batch processor hands them to an exporter. */
function finishedSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer('export-thread-test');
  tracer.startSpan('GET /first').end();
  tracer.startSpan('GET /second').end();
  return memory.getFinishedSpans();
}

interface Received {
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}

describe('the exporter that posts from its own thread', () => {
  let server: Server;
  let url = '';
  const received: Received[] = [];
  /** The statuses the collector answers, in turn; 200 once they run out. */
  let answers: number[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          contentType: req.headers['content-type'],
          authorization: req.headers.authorization,
          body: Buffer.concat(chunks).toString('latin1'),
        });
        res.statusCode = answers.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    received.length = 0;
    answers = [];
  });

  const exportOnce = (exporter: ThreadExporter, spans: ReadableSpan[]) =>
    new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

  it('posts a batch as OTLP protobuf with the configured headers, and answers success', async () => {
    const exporter = new ThreadExporter({ url, protocol: 'http/protobuf', headers: { authorization: 'Bearer k' }, timeoutMillis: 5000 });
    try {
      expect((await exportOnce(exporter, finishedSpans())).code).toBe(ExportResultCode.SUCCESS);
    } finally {
      await exporter.shutdown();
    }
    expect(received).toHaveLength(1);
    expect([received[0]!.contentType, received[0]!.authorization]).toEqual(['application/x-protobuf', 'Bearer k']);
    // Protobuf carries the span names as plain bytes.
    expect(received[0]!.body).toContain('GET /first');
    expect(received[0]!.body).toContain('GET /second');
  });

  it('posts OTLP JSON when the protocol says so', async () => {
    const exporter = new ThreadExporter({ url, protocol: 'http/json', headers: {}, timeoutMillis: 5000 });
    try {
      expect((await exportOnce(exporter, finishedSpans())).code).toBe(ExportResultCode.SUCCESS);
    } finally {
      await exporter.shutdown();
    }
    expect(received[0]!.contentType).toBe('application/json');
    const names = (
      JSON.parse(received[0]!.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }
    ).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));
    expect(names.sort()).toEqual(['GET /first', 'GET /second']);
  });

  it('tries again after an answer OTLP calls retryable, and not after one it does not', async () => {
    const exporter = new ThreadExporter({ url, protocol: 'http/protobuf', headers: {}, timeoutMillis: 10_000 });
    try {
      answers = [503];
      expect((await exportOnce(exporter, finishedSpans())).code).toBe(ExportResultCode.SUCCESS);
      expect(received).toHaveLength(2);

      received.length = 0;
      answers = [400];
      const refused = await exportOnce(exporter, finishedSpans());
      expect([refused.code, refused.error?.message]).toEqual([ExportResultCode.FAILED, 'the collector answered 400']);
      expect(received).toHaveLength(1);
    } finally {
      await exporter.shutdown();
    }
  });

  it('fails an export whose collector does not answer within its time limit, and refuses one after shutdown', async () => {
    const exporter = new ThreadExporter({
      url: 'http://127.0.0.1:9/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMillis: 300,
    });
    const result = await exportOnce(exporter, finishedSpans());
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toMatch(/^the collector did not answer/);
    await exporter.shutdown();
    const late = await exportOnce(exporter, finishedSpans());
    expect([late.code, late.error?.message]).toEqual([ExportResultCode.FAILED, 'the exporter is shut down']);
  });

  it('waits for the exports under way on forceFlush and shutdown', async () => {
    const exporter = new ThreadExporter({ url, protocol: 'http/protobuf', headers: {}, timeoutMillis: 5000 });
    const results: ExportResult[] = [];
    exporter.export(finishedSpans(), (r) => results.push(r));
    exporter.export(finishedSpans(), (r) => results.push(r));
    await exporter.forceFlush();
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
    exporter.export(finishedSpans(), (r) => results.push(r));
    await exporter.shutdown();
    expect(results).toHaveLength(3);
  });
});

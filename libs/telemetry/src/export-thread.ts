// The OTLP export, posted from a thread of its own (ADR 0054, section 12). The SDK's exporters post with node:http
// on the main thread: every export's request then goes through the same functions of Node's HTTP and socket code as
// the service's answers, and V8's code for those, specialised to the server's answers, meets a second kind of
// object. At 1 % that cost every cached page several per cent (`npm run bench:tracing-paired`). Here the main thread
// only serialises a batch (the SDK's own OTLP serialiser, protobuf or JSON) and hands the bytes to a worker thread,
// which posts them with fetch: the main thread's HTTP code sees the service's traffic alone.
import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

export interface ThreadExporterOptions {
  /** The traces URL, whole. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** One export's time limit, retries included. */
  timeoutMillis: number;
}

/** What the worker answers for one export: nothing wrong, or why it failed. */
interface Outcome {
  id: number;
  error?: string;
}

// The worker: a script (not a module file), so that it needs no path at run time. It posts each batch, and tries
// again on the answers OTLP/HTTP calls retryable (429, 502, 503, 504) or when no answer came, with a backoff, until
// the export's time limit: the OTLP exporter's own rule.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, timeoutMillis } = workerData;
const RETRYABLE = new Set([429, 502, 503, 504]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function post(body) {
  const deadline = Date.now() + timeoutMillis;
  let failure = 'no attempt';
  for (let attempt = 0; ; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) return failure + '; gave up after ' + timeoutMillis + ' ms';
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(left) });
      await res.arrayBuffer();
      if (res.ok) return undefined;
      failure = 'the collector answered ' + res.status;
      if (!RETRYABLE.has(res.status)) return failure;
    } catch (err) {
      failure = 'the collector did not answer: ' + (err && err.cause ? err.cause.message : err && err.message);
    }
    const backoff = Math.min(1000 * 2 ** attempt, 5000) * (0.8 + Math.random() * 0.4);
    if (Date.now() + backoff >= deadline) return failure;
    await sleep(backoff);
  }
}
parentPort.on('message', ({ id, body }) => {
  post(body).then((error) => parentPort.postMessage({ id, error }));
});
`;

/**
 * An OTLP/HTTP span exporter whose requests leave from a worker thread. The worker does not keep the process
 * alive; `shutdown` waits for the exports under way, then ends it.
 */
export class ThreadExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly serializer: typeof ProtobufTraceSerializer | typeof JsonTraceSerializer;
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private readonly drained: Array<() => void> = [];
  private next = 0;
  private stopped = false;

  constructor(opts: ThreadExporterOptions) {
    const json = opts.protocol === 'http/json';
    this.serializer = json ? JsonTraceSerializer : ProtobufTraceSerializer;
    const headers = { ...opts.headers, 'content-type': json ? 'application/json' : 'application/x-protobuf' };
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { url: opts.url, headers, timeoutMillis: opts.timeoutMillis },
      // The worker runs no service code: none of the process's preloads or flags.
      execArgv: [],
      env: {},
    });
    this.worker.unref();
    this.worker.on('message', ({ id, error }: Outcome) =>
      this.settle(
        id,
        error === undefined ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(error) },
      ),
    );
    this.worker.on('error', (err) => {
      for (const id of [...this.pending.keys()]) this.settle(id, { code: ExportResultCode.FAILED, error: err });
    });
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.stopped) return resultCallback({ code: ExportResultCode.FAILED, error: new Error('the exporter is shut down') });
    const body = this.serializer.serializeRequest(spans);
    if (body === undefined) return resultCallback({ code: ExportResultCode.FAILED, error: new Error('the spans could not be serialised') });
    const id = (this.next += 1);
    this.pending.set(id, resultCallback);
    // A copy of its own, so that the bytes move to the worker rather than being copied again.
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    this.worker.postMessage({ id, body: owned }, [owned.buffer as ArrayBuffer]);
  }

  /** Resolves once every export handed to the worker has its answer. */
  forceFlush(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    await this.forceFlush();
    await this.worker.terminate();
  }

  private settle(id: number, result: ExportResult): void {
    const done = this.pending.get(id);
    if (!done) return;
    this.pending.delete(id);
    done(result);
    if (this.pending.size === 0) for (const resolve of this.drained.splice(0)) resolve();
  }
}

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { listenOnLoopback } from './loopback.js';

/** An attribute's value as OTLP/JSON carries it, made plain. */
export type SpanAttributeValue = string | number | boolean | null | SpanAttributeValue[] | { [key: string]: SpanAttributeValue };

/** One span as a process exported it. Ids are lowercase hex, whatever encoding they arrived in. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Undefined for the root of the trace, or for a span whose parent is in another process that never exports. */
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** `service.name` of the resource the span came with. */
  service: string | undefined;
  /** `service.instance.id` of that resource (host and pid): tells replicas of one service apart. */
  instance: string | undefined;
  /** The instrumentation scope (`@opentelemetry/instrumentation-pg`, the kit's own, …). */
  scope: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, SpanAttributeValue>;
  status: { code: number; message: string | undefined };
}

/** The variables that make a process export every span of a flagged journey here, and nothing else (ADR 0054). */
export interface OtlpReceiverEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT: string;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json';
  OTEL_TRACES_SAMPLER: 'parentbased_always_off';
  TRACE_REMOTE_PARENT: 'follow';
  OTEL_BSP_SCHEDULE_DELAY: string;
}

/** A fresh trace a test follows: send `traceparent` with the request that starts the journey. */
export interface FlaggedTrace {
  traceId: string;
  /** W3C trace context, version 00, flag 01 (sampled); its span id is the test's, never exported. */
  traceparent: string;
  /** The span id in `traceparent`: the parent of the first span a process records. */
  parentSpanId: string;
}

/**
 * An in-process OTLP/HTTP collector for tests: `POST /v1/traces` with an OTLP/JSON body (what
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json` sends, gzip or not), answered 200. Spans are kept by trace
 * id. A test flags the traces it follows ({@link flagTrace}); with the processes sampling
 * `parentbased_always_off` and following a remote parent's flag (see {@link env}), nothing else should
 * arrive, and {@link strays} / {@link expectOnlyFlaggedTraces} say when something did, which proves that
 * an unflagged request costs no export across processes.
 */
export class OtlpReceiver {
  private server: Server | undefined;
  private baseUrl = '';
  private readonly byTrace = new Map<string, ReceivedSpan[]>();
  private readonly flagged = new Set<string>();
  private readonly unreadable: string[] = [];
  private readonly listeners = new Set<() => void>();
  /** Export requests read. */
  requests = 0;

  /** Starts listening on 127.0.0.1 and a free port. */
  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.baseUrl = await listenOnLoopback(server);
    this.server = server;
    return this;
  }

  /** The collector's base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `${url}/v1/traces`. */
  get url(): string {
    if (!this.server) throw new Error('the OTLP receiver is not started');
    return this.baseUrl;
  }

  /** The variables to give every process under test; `scheduleDelayMs` is how long a span may wait in its batch. */
  env(scheduleDelayMs = 200): OtlpReceiverEnv {
    return {
      OTEL_EXPORTER_OTLP_ENDPOINT: this.url,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_always_off',
      TRACE_REMOTE_PARENT: 'follow',
      OTEL_BSP_SCHEDULE_DELAY: String(scheduleDelayMs),
    };
  }

  /** A new trace the test follows, with the `traceparent` that starts it. */
  flagTrace(): FlaggedTrace {
    const traceId = randomBytes(16).toString('hex');
    const parentSpanId = randomBytes(8).toString('hex');
    this.flagged.add(traceId);
    return { traceId, parentSpanId, traceparent: `00-${traceId}-${parentSpanId}-01` };
  }

  /** Follows a trace started elsewhere (a browser's id). */
  flag(traceId: string): void {
    this.flagged.add(traceId.toLowerCase());
  }

  /** The spans of a trace received so far, oldest start first. */
  spans(traceId: string): ReceivedSpan[] {
    return [...(this.byTrace.get(traceId.toLowerCase()) ?? [])].sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
  }

  /**
   * The trace's spans once `until` holds for them (each export is checked as it arrives). Fails after
   * `timeoutMs`, listing what did arrive.
   */
  waitForTrace(traceId: string, until: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const spans = this.spans(traceId);
        if (!until(spans)) return false;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve(spans);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`trace ${traceId} not complete after ${timeoutMs} ms; received:\n${describeSpans(this.spans(traceId))}`));
      }, timeoutMs);
      this.listeners.add(listener);
      check();
    });
  }

  /** Spans of traces no test flagged, and export requests that could not be read. */
  strays(): { spans: ReceivedSpan[]; unreadable: string[] } {
    const spans = [...this.byTrace.entries()].filter(([id]) => !this.flagged.has(id)).flatMap(([, list]) => list);
    return { spans, unreadable: [...this.unreadable] };
  }

  /** Throws, naming them, when anything arrived outside the flagged traces (or could not be read). */
  expectOnlyFlaggedTraces(): void {
    const { spans, unreadable } = this.strays();
    if (spans.length === 0 && unreadable.length === 0) return;
    throw new Error(
      [
        ...(spans.length > 0 ? [`${spans.length} span(s) outside the flagged traces:\n${describeSpans(spans)}`] : []),
        ...unreadable.map((why) => `an export the receiver could not read: ${why}`),
      ].join('\n'),
    );
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?', 1)[0];
    if (req.method !== 'POST' || path !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    let body: unknown;
    try {
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('application/json')) throw new Error(`content-type ${type || 'missing'}, not application/json`);
      const raw = req.headers['content-encoding'] === 'gzip' ? gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
      body = JSON.parse(raw.toString('utf8'));
      this.keep(body as OtlpExport);
    } catch (err) {
      this.unreadable.push((err as Error).message);
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: (err as Error).message }));
      return;
    }
    this.requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    for (const listener of [...this.listeners]) listener();
  }

  private keep(body: OtlpExport): void {
    if (!Array.isArray(body.resourceSpans)) throw new Error('no resourceSpans array');
    for (const resourceSpans of body.resourceSpans) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const s of scopeSpans.spans ?? []) {
          const span: ReceivedSpan = {
            traceId: id(s.traceId, 16, 'traceId'),
            spanId: id(s.spanId, 8, 'spanId'),
            parentSpanId: s.parentSpanId ? id(s.parentSpanId, 8, 'parentSpanId') : undefined,
            name: s.name,
            kind: s.kind ?? 0,
            service: stringOr(resource['service.name']),
            instance: stringOr(resource['service.instance.id']),
            scope: scopeSpans.scope?.name ?? '',
            startTimeUnixNano: BigInt(s.startTimeUnixNano),
            endTimeUnixNano: BigInt(s.endTimeUnixNano),
            attributes: attributesOf(s.attributes),
            status: { code: s.status?.code ?? 0, message: s.status?.message || undefined },
          };
          const list = this.byTrace.get(span.traceId) ?? [];
          list.push(span);
          this.byTrace.set(span.traceId, list);
        }
      }
    }
  }
}

/** Starts an {@link OtlpReceiver}. Close it in `afterAll`. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  return new OtlpReceiver().start();
}

/** One line per span: service, kind, name, ids. For failure messages. */
export function describeSpans(spans: readonly ReceivedSpan[]): string {
  if (spans.length === 0) return '  (nothing)';
  return spans
    .map(
      (s) =>
        `  ${s.service ?? '?'} ${KINDS[s.kind] ?? s.kind} "${s.name}" trace ${s.traceId} span ${s.spanId} parent ${s.parentSpanId ?? '-'}`,
    )
    .join('\n');
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

// The OTLP/JSON shape (opentelemetry-proto's JSON mapping), as far as the receiver reads it.
interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind?: number;
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
        attributes?: OtlpKeyValue[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, SpanAttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(v: OtlpAnyValue | undefined): SpanAttributeValue {
  if (v === undefined) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.kvlistValue !== undefined) return attributesOf(v.kvlistValue.values);
  if (v.bytesValue !== undefined) return v.bytesValue;
  return null;
}

const stringOr = (v: SpanAttributeValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * OTLP/JSON says ids are hex (OpenTelemetry JS sends them so); the protobuf JSON mapping would make them
 * base64. Either becomes lowercase hex of `bytes` bytes, anything else is refused.
 */
function id(raw: string, bytes: number, field: string): string {
  if (new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(raw)) return raw.toLowerCase();
  const decoded = Buffer.from(raw, 'base64');
  if (decoded.length === bytes && decoded.toString('base64') === raw) return decoded.toString('hex');
  throw new Error(`${field} ${JSON.stringify(raw)} is neither ${bytes * 2} hex digits nor ${bytes} bytes of base64`);
}

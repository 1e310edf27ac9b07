import type { IncomingMessage } from 'node:http';
import { ROOT_CONTEXT, SamplingDecision, SpanKind, TraceFlags, type Attributes } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace';
import type { RemoteParentRule, SamplerName } from './config.js';

/**
 * One sampling decision per trace, made where the trace enters (ADR 0054): the edge decides before the HTTP
 * instrumentation does any work, and the provider's sampler and id generator agree with it.
 * - `keepsIncoming`: the edge's HTTP servers (edge-server.ts) start a server span only for what it keeps; a
 *   dropped request runs as with tracing off, with no span, so the calls it makes carry no trace context and no
 *   process downstream traces them.
 * - `sampler`: what the edge kept is recorded; no other root is (a gRPC call whose caller did not trace it, a
 *   dropped request's calls, a timer's); a parent's decision is followed as TRACE_REMOTE_PARENT says.
 * - `idGenerator`: a request kept with no trace context by a ratio gets a trace id the ratio samples, so every
 *   process that decides on that id later decides alike.
 */
export interface Sampling {
  sampler: Sampler;
  idGenerator: IdGenerator;
  /** Whether an incoming request is traced (false: it runs with no span, as with tracing off). */
  keepsIncoming(request: IncomingMessage): boolean;
}

/** How the edge decides a request with no trace context: every one, none, or by the ratio's draw. */
type RootRule = 'all' | 'none' | 'draw';
/** How it decides one with a caller's trace context: every one, none, by its flag, by the ratio on its trace id, or both. */
type ParentRule = 'all' | 'none' | 'flag' | 'ratio' | 'flag and ratio';

// The edge's server span (edge-server.ts) passes the stable semantic conventions to startSpan; the old name is
// another HTTP instrumentation's. instrumentation-grpc passes no attribute at start (it sets rpc.* afterwards).
const HTTP_METHOD = 'http.request.method';
const OLD_HTTP_METHOD = 'http.method';

const RECORD: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED };
const DROP: SamplingResult = { decision: SamplingDecision.NOT_RECORD };

/**
 * The decisions OTEL_TRACES_SAMPLER and TRACE_REMOTE_PARENT name, at the edge and in the provider. `random`
 * is the edge's draw for a request with no trace context (the tests give their own).
 *
 * For the parent-based samplers, a local parent's decision is always followed (a trace never splits inside a
 * process). A remote parent's unsampled flag is followed too: its caller (or a process on the way) decided, and
 * a span recorded under it would have no recorded parent. Its sampled flag is followed with `follow`; with
 * `ratio` the root sampler also decides on its trace id, so a caller cannot make this process record by setting
 * the flag, and every process that shares the ratio decides alike. The samplers that are not parent-based
 * decide each span alone, as their names say.
 */
export function createSampling(name: SamplerName, ratio: number, remoteParent: RemoteParentRule, random = Math.random): Sampling {
  // The SDK's own ratio sampler, shared by the edge, the id generator and the provider: they cannot disagree.
  const ratioSampler = new TraceIdRatioBasedSampler(ratio);
  const ids = new EdgeIdGenerator(ratioSampler, ratio, random);
  const parentBased = (root: Sampler, rootRule: RootRule, sampledParent: ParentRule) => ({
    sampler: new ParentBasedSampler({
      root: EDGE_ROOT,
      remoteParentSampled: remoteParent === 'follow' ? new AlwaysOnSampler() : root,
      remoteParentNotSampled: new AlwaysOffSampler(),
    }),
    root: rootRule,
    parent: remoteParent === 'follow' ? 'flag' : sampledParent,
  });
  const { sampler, root, parent } = ((): { sampler: Sampler; root: RootRule; parent: ParentRule } => {
    switch (name) {
      case 'always_on':
        return { sampler: new AlwaysOnSampler(), root: 'all', parent: 'all' };
      case 'always_off':
        return { sampler: new AlwaysOffSampler(), root: 'none', parent: 'none' };
      case 'traceidratio':
        return { sampler: ratioSampler, root: 'draw', parent: 'ratio' };
      case 'parentbased_always_on':
        return parentBased(new AlwaysOnSampler(), 'all', 'flag');
      case 'parentbased_always_off':
        return parentBased(new AlwaysOffSampler(), 'none', 'none');
      case 'parentbased_traceidratio':
        return parentBased(ratioSampler, 'draw', 'flag and ratio');
    }
  })();
  const sampled = (flags: number) => (flags & TraceFlags.SAMPLED) !== 0;
  const ratioSamples = (traceId: string) =>
    ratioSampler.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED;

  return {
    sampler,
    idGenerator: ids,
    keepsIncoming(request) {
      // A draw that kept a request whose span was never started counts for nothing.
      ids.keepNextRoot = false;
      const header = request.headers.traceparent;
      // Read as the W3C propagator reads it, so the edge and the span it lets start see the same parent.
      const caller = header === undefined ? null : parseTraceParent(Array.isArray(header) ? (header[0] ?? '') : header);
      if (caller === null) {
        if (root !== 'draw') return root === 'all';
        return (ids.keepNextRoot = ids.draw());
      }
      switch (parent) {
        case 'all':
        case 'none':
          return parent === 'all';
        case 'flag':
          return sampled(caller.traceFlags);
        case 'ratio':
          return ratioSamples(caller.traceId);
        case 'flag and ratio':
          return sampled(caller.traceFlags) && ratioSamples(caller.traceId);
      }
    },
  };
}

/**
 * A parent-based sampler's root: a server span carrying an HTTP method reached the sampler because the edge
 * kept its request (edge-server.ts starts no other), so it is recorded. Any other span with no parent is not:
 * a gRPC call whose caller was suppressed or is not traced (the caller decided), the calls of a request the edge
 * dropped (they run with no span around them), a timer's call. Traces start at the edge, and only there.
 */
export const EDGE_ROOT: Sampler = {
  shouldSample: (_context, _traceId, _name, kind, attributes) => (kind === SpanKind.SERVER && hasHttpMethod(attributes) ? RECORD : DROP),
  toString: () => 'EdgeRoot',
};

function hasHttpMethod(attributes: Attributes): boolean {
  return attributes[HTTP_METHOD] !== undefined || attributes[OLD_HTTP_METHOD] !== undefined;
}

/**
 * Random ids, except the trace id of the root the edge has just kept by the ratio: one the ratio samples, so
 * the processes it calls (which decide on the trace id with TRACE_REMOTE_PARENT=ratio) record it too. The
 * edge's server (edge-server.ts) starts that span synchronously after the draw, with no other span in between.
 */
export class EdgeIdGenerator implements IdGenerator {
  /** Set by the edge when it keeps a request with no trace context by the ratio; taken by the next trace id. */
  keepNextRoot = false;
  private readonly random = new RandomIdGenerator();
  // The SDK sampler's bound (its accumulated trace id must be under it), from the same ratio; each id made
  // with it is checked with the sampler itself before it is used.
  private readonly upperBound: number;

  constructor(
    private readonly sampler: TraceIdRatioBasedSampler,
    ratio: number,
    private readonly rand: () => number,
  ) {
    const r = ratio >= 1 ? 1 : ratio > 0 ? ratio : 0;
    this.upperBound = r === 1 ? 2 ** 32 : Math.floor(r * 0xffffffff);
  }

  /** The edge's draw for a request with no trace context: kept as often as the sampler keeps a random id. */
  draw(): boolean {
    return this.rand() * 2 ** 32 < this.upperBound;
  }

  generateTraceId(): string {
    if (!this.keepNextRoot) return this.random.generateTraceId();
    this.keepNextRoot = false;
    return this.sampledTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }

  /**
   * A random trace id the ratio sampler samples. It sums the id's four 32-bit words with XOR and samples
   * under its bound: three words are random, the fourth makes the sum a random number under the bound.
   */
  sampledTraceId(): string {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const [a, b, c] = [word(this.rand), word(this.rand), word(this.rand)];
      const sum = Math.floor(this.rand() * this.upperBound) >>> 0;
      ID.writeUInt32BE(a, 0);
      ID.writeUInt32BE(b, 4);
      ID.writeUInt32BE(c, 8);
      ID.writeUInt32BE((sum ^ a ^ b ^ c) >>> 0, 12);
      const id = ID.toString('hex');
      if (this.sampler.shouldSample(ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED) return id;
    }
    // Only if the SDK changed how it samples: random ids until it agrees (about 1/ratio of them), within reason.
    let id = this.random.generateTraceId();
    for (let attempt = 0; attempt < 100_000; attempt += 1) {
      if (this.sampler.shouldSample(ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED) break;
      id = this.random.generateTraceId();
    }
    return id;
  }
}

const word = (rand: () => number) => Math.floor(rand() * 2 ** 32) >>> 0;
// Written and read at once, as the SDK's own generator does.
const ID = Buffer.allocUnsafe(16);

import type { IncomingMessage } from 'node:http';
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Attributes, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  RandomIdGenerator,
  SamplingDecision,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { RemoteParentRule, SamplerName } from './config.js';
import { createSampling, EdgeIdGenerator, type Sampling } from './sampling.js';

// Two trace ids either side of a 50 % ratio (checked first below, so the cases do not rest on a guess).
const KEPT_AT_HALF = '00000000000000000000000000000001';
const DROPPED_AT_HALF = 'ffffffff000000000000000000000000';
const SPAN = '1111111111111111';
const HTTP = { 'http.request.method': 'GET' };

function parent(sampled: boolean, isRemote: boolean, traceId: string): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: SPAN,
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote,
  });
}

type Decided = 'recorded' | 'dropped';

function decide(
  sampling: Sampling,
  traceId: string,
  context: Context = ROOT_CONTEXT,
  kind: SpanKind = SpanKind.CLIENT,
  attributes: Attributes = {},
): Decided {
  const { decision } = sampling.sampler.shouldSample(context, traceId, 'span', kind, attributes, []);
  return decision === SamplingDecision.RECORD_AND_SAMPLED ? 'recorded' : 'dropped';
}

const sampling = (name: SamplerName, ratio: number, rule: RemoteParentRule, random?: () => number) =>
  createSampling(name, ratio, rule, random);

describe('the sampler OTEL_TRACES_SAMPLER names, and TRACE_REMOTE_PARENT', () => {
  it('has trace ids either side of the ratio to test with', () => {
    const half = new TraceIdRatioBasedSampler(0.5);
    expect(half.shouldSample(ROOT_CONTEXT, KEPT_AT_HALF).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(half.shouldSample(ROOT_CONTEXT, DROPPED_AT_HALF).decision).toBe(SamplingDecision.NOT_RECORD);
  });

  it("with ratio, a remote parent's sampled flag is not enough (the ratio decides on its trace id), and its unsampled flag drops", () => {
    const s = sampling('parentbased_traceidratio', 0.5, 'ratio');
    expect(decide(s, DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF))).toBe('dropped');
    expect(decide(s, KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF))).toBe('recorded');
    expect(decide(s, KEPT_AT_HALF, parent(false, true, KEPT_AT_HALF))).toBe('dropped');
    // A server span under a remote parent is decided the same way, whatever its attributes.
    expect(decide(s, KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF), SpanKind.SERVER)).toBe('recorded');
    expect(decide(s, DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF), SpanKind.SERVER, HTTP)).toBe('dropped');
  });

  it("with follow, a remote parent's flag decides", () => {
    const s = sampling('parentbased_traceidratio', 0.5, 'follow');
    expect(decide(s, DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF))).toBe('recorded');
    expect(decide(s, KEPT_AT_HALF, parent(false, true, KEPT_AT_HALF))).toBe('dropped');
  });

  it("follows a local parent's decision either way, so a trace never splits inside a process", () => {
    for (const rule of ['ratio', 'follow'] as const) {
      const s = sampling('parentbased_traceidratio', 0.5, rule);
      expect(decide(s, DROPPED_AT_HALF, parent(true, false, DROPPED_AT_HALF))).toBe('recorded');
      expect(decide(s, KEPT_AT_HALF, parent(false, false, KEPT_AT_HALF), SpanKind.SERVER, HTTP)).toBe('dropped');
    }
  });

  it('records only flagged journeys with parentbased_always_off and follow (the tests), and nothing with ratio', () => {
    const tests = sampling('parentbased_always_off', 1, 'follow');
    expect(decide(tests, KEPT_AT_HALF)).toBe('dropped');
    expect(decide(tests, KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF))).toBe('recorded');
    expect(decide(tests, KEPT_AT_HALF, parent(false, true, KEPT_AT_HALF))).toBe('dropped');
    expect(decide(sampling('parentbased_always_off', 1, 'ratio'), KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF))).toBe('dropped');
  });

  it('records a flagged trace with parentbased_always_on under either rule, and never one its caller dropped', () => {
    for (const rule of ['ratio', 'follow'] as const) {
      const s = sampling('parentbased_always_on', 1, rule);
      expect(decide(s, DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF))).toBe('recorded');
      expect(decide(s, DROPPED_AT_HALF, parent(false, true, DROPPED_AT_HALF))).toBe('dropped');
    }
  });

  it('ignores any parent with the samplers that are not parent-based, and so decides every span alone', () => {
    expect(decide(sampling('always_on', 1, 'follow'), KEPT_AT_HALF, parent(false, true, KEPT_AT_HALF))).toBe('recorded');
    expect(decide(sampling('always_on', 1, 'follow'), KEPT_AT_HALF, ROOT_CONTEXT, SpanKind.SERVER)).toBe('recorded');
    expect(decide(sampling('always_off', 1, 'follow'), KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF))).toBe('dropped');
    const ratio = sampling('traceidratio', 0.5, 'follow');
    expect(decide(ratio, DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF))).toBe('dropped');
    expect(decide(ratio, KEPT_AT_HALF, parent(false, true, KEPT_AT_HALF))).toBe('recorded');
  });

  it('records nothing at ratio 0 and everything at ratio 1, where the ratio decides', () => {
    expect(decide(sampling('traceidratio', 0, 'ratio'), KEPT_AT_HALF)).toBe('dropped');
    expect(decide(sampling('traceidratio', 1, 'ratio'), DROPPED_AT_HALF)).toBe('recorded');
    // A caller's sampled flag, with TRACE_REMOTE_PARENT=ratio.
    expect(decide(sampling('parentbased_traceidratio', 0, 'ratio'), KEPT_AT_HALF, parent(true, true, KEPT_AT_HALF))).toBe('dropped');
    expect(decide(sampling('parentbased_traceidratio', 1, 'ratio'), DROPPED_AT_HALF, parent(true, true, DROPPED_AT_HALF))).toBe('recorded');
  });
});

describe("the parent-based samplers' roots, by kind", () => {
  const parentBased = ['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

  it('record an HTTP server span with no parent: only a request the edge kept starts one', () => {
    for (const name of parentBased)
      for (const rule of ['ratio', 'follow'] as const) {
        const s = sampling(name, 0, rule);
        expect([name, rule, decide(s, DROPPED_AT_HALF, ROOT_CONTEXT, SpanKind.SERVER, HTTP)]).toEqual([name, rule, 'recorded']);
        expect(decide(s, DROPPED_AT_HALF, ROOT_CONTEXT, SpanKind.SERVER, { 'http.method': 'POST' })).toBe('recorded');
      }
  });

  it('drop any other server span with no parent (a gRPC call whose caller was suppressed or is untraced): the caller decided', () => {
    for (const name of parentBased) {
      // instrumentation-grpc passes no attribute when it starts the span.
      expect([name, decide(sampling(name, 1, 'ratio'), KEPT_AT_HALF, ROOT_CONTEXT, SpanKind.SERVER)]).toEqual([name, 'dropped']);
      expect(decide(sampling(name, 1, 'follow'), KEPT_AT_HALF, ROOT_CONTEXT, SpanKind.SERVER, { 'rpc.system': 'grpc' })).toBe('dropped');
    }
  });

  it("drop every other root (a dropped request's gRPC call, a timer's, an internal span): traces start at the edge", () => {
    for (const kind of [SpanKind.CLIENT, SpanKind.INTERNAL, SpanKind.PRODUCER, SpanKind.CONSUMER])
      for (const name of parentBased)
        for (const id of [KEPT_AT_HALF, DROPPED_AT_HALF])
          expect([name, kind, decide(sampling(name, 1, 'ratio'), id, ROOT_CONTEXT, kind, HTTP)]).toEqual([name, kind, 'dropped']);
  });
});

describe('the edge: which incoming requests are traced, decided before the HTTP instrumentation does any work', () => {
  const request = (traceparent?: string | string[]) => ({ headers: traceparent === undefined ? {} : { traceparent } }) as IncomingMessage;
  const header = (traceId: string, flags: '00' | '01') => `00-${traceId}-${SPAN}-${flags}`;
  const MALFORMED = [
    'garbage',
    `00-${'0'.repeat(32)}-${SPAN}-01`, // a zero trace id
    `00-${KEPT_AT_HALF}-${'0'.repeat(16)}-01`, // a zero span id
    `ff-${KEPT_AT_HALF}-${SPAN}-01`, // version ff
    `00-${KEPT_AT_HALF}-${SPAN}-01-more`, // version 00 with more after it
    `00-${KEPT_AT_HALF.toUpperCase().replace('1', 'A')}-${SPAN}-01`, // upper case
  ];
  // At ratio 0.5: a caller's sampled trace the ratio keeps, one it drops, an unsampled one it would keep; then no
  // header with the edge's draw under and over the ratio; then each malformed header with the draw under it.
  const cases = (name: SamplerName, rule: RemoteParentRule) => {
    const keeps = (traceparent: string | undefined, draw: number) =>
      sampling(name, 0.5, rule, () => draw).keepsIncoming(request(traceparent));
    return [
      keeps(header(KEPT_AT_HALF, '01'), 0.75),
      keeps(header(DROPPED_AT_HALF, '01'), 0.25),
      keeps(header(KEPT_AT_HALF, '00'), 0.25),
      keeps(undefined, 0.25),
      keeps(undefined, 0.75),
      MALFORMED.map((m) => keeps(m, 0.25)).join(' '),
    ].map(String);
  };

  it.each<[SamplerName, RemoteParentRule, string[]]>([
    ['always_on', 'ratio', ['true', 'true', 'true', 'true', 'true', 'true true true true true true']],
    ['always_on', 'follow', ['true', 'true', 'true', 'true', 'true', 'true true true true true true']],
    ['always_off', 'ratio', ['false', 'false', 'false', 'false', 'false', 'false false false false false false']],
    ['always_off', 'follow', ['false', 'false', 'false', 'false', 'false', 'false false false false false false']],
    // Not parent-based: the ratio on the caller's trace id, whatever its flag.
    ['traceidratio', 'ratio', ['true', 'false', 'true', 'true', 'false', 'true true true true true true']],
    ['traceidratio', 'follow', ['true', 'false', 'true', 'true', 'false', 'true true true true true true']],
    ['parentbased_always_on', 'ratio', ['true', 'true', 'false', 'true', 'true', 'true true true true true true']],
    ['parentbased_always_on', 'follow', ['true', 'true', 'false', 'true', 'true', 'true true true true true true']],
    ['parentbased_always_off', 'ratio', ['false', 'false', 'false', 'false', 'false', 'false false false false false false']],
    // The fault platform's settings: flagged journeys only.
    ['parentbased_always_off', 'follow', ['true', 'true', 'false', 'false', 'false', 'false false false false false false']],
    // The bench's and production's: the ratio, on the caller's trace id when it sampled, else by the draw.
    ['parentbased_traceidratio', 'ratio', ['true', 'false', 'false', 'true', 'false', 'true true true true true true']],
    ['parentbased_traceidratio', 'follow', ['true', 'true', 'false', 'true', 'false', 'true true true true true true']],
  ])(
    '%s with %s: caller sampled and kept by the ratio, sampled and not, unsampled; none (draw in, out); malformed',
    (name, rule, expected) => {
      expect(cases(name, rule)).toEqual(expected);
    },
  );

  it('reads the first of repeated traceparent headers, as the propagator does', () => {
    const s = sampling('parentbased_always_off', 1, 'follow');
    expect(s.keepsIncoming(request([header(KEPT_AT_HALF, '01'), header(KEPT_AT_HALF, '00')]))).toBe(true);
    expect(s.keepsIncoming(request([header(KEPT_AT_HALF, '00'), header(KEPT_AT_HALF, '01')]))).toBe(false);
  });

  it('draws as often as the ratio samples a random trace id: never at 0, always at 1', () => {
    expect(sampling('parentbased_traceidratio', 0, 'ratio', () => 0).keepsIncoming(request())).toBe(false);
    expect(sampling('parentbased_traceidratio', 1, 'ratio', () => 0.999999).keepsIncoming(request())).toBe(true);
    let kept = 0;
    const tenth = sampling('parentbased_traceidratio', 0.1, 'ratio');
    for (let i = 0; i < 20_000; i += 1) if (tenth.keepsIncoming(request())) kept += 1;
    expect(kept).toBeGreaterThan(1_700);
    expect(kept).toBeLessThan(2_300);
  });
});

describe('one decision per trace, across processes', () => {
  const propagator = new W3CTraceContextPropagator();
  const getter = { get: (c: Record<string, string>, k: string) => c[k], keys: (c: Record<string, string>) => Object.keys(c) };
  const setter = { set: (c: Record<string, string>, k: string, v: string) => void (c[k] = v) };

  /** A process: its sampling, and a provider as the preload makes it (sampler and id generator). */
  function processOf(name: SamplerName, ratio: number, rule: RemoteParentRule) {
    const s = createSampling(name, ratio, rule);
    const provider = new TracerProvider({
      sampler: s.sampler,
      idGenerator: s.idGenerator,
      spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })],
    });
    return { sampling: s, tracer: provider.getTracer('test') };
  }

  /**
   * A request through an edge (HTTP, then a gRPC call it makes) to an owner, which writes an event a consumer in
   * a third process applies: what each recorded. A dropped request is suppressed at the edge, so nothing is sent on.
   */
  function journey(name: SamplerName, ratio: number, rule: RemoteParentRule, traceparent?: string) {
    const [edge, owner, consumer] = [processOf(name, ratio, rule), processOf(name, ratio, rule), processOf(name, ratio, rule)];
    const headers: Record<string, string> = traceparent === undefined ? {} : { traceparent };
    const recorded = { edge: false, owner: false, consumer: false };
    const metadata: Record<string, string> = {};
    if (edge.sampling.keepsIncoming({ headers } as IncomingMessage)) {
      const extracted = propagator.extract(ROOT_CONTEXT, headers, getter);
      const server = edge.tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: HTTP }, extracted);
      recorded.edge = server.isRecording();
      const client = edge.tracer.startSpan('grpc', { kind: SpanKind.CLIENT }, trace.setSpan(extracted, server));
      propagator.inject(trace.setSpan(ROOT_CONTEXT, client), metadata, setter);
    }
    const ownerSpan = owner.tracer.startSpan('grpc', { kind: SpanKind.SERVER }, propagator.extract(ROOT_CONTEXT, metadata, getter));
    recorded.owner = ownerSpan.isRecording();
    const envelope: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, ownerSpan), envelope, setter);
    const consumed = consumer.tracer.startSpan('process', { kind: SpanKind.CONSUMER }, propagator.extract(ROOT_CONTEXT, envelope, getter));
    recorded.consumer = consumed.isRecording();
    return recorded;
  }

  it.each<[SamplerName, number, RemoteParentRule]>([
    ['parentbased_traceidratio', 0.1, 'ratio'],
    ['parentbased_traceidratio', 0.1, 'follow'],
    ['parentbased_always_on', 1, 'ratio'],
    ['parentbased_always_off', 1, 'follow'],
  ])('%s at %s with %s: every process records a trace or none does', (name, ratio, rule) => {
    const outcomes = new Set<string>();
    const ids = new RandomIdGenerator();
    for (let i = 0; i < 400; i += 1) {
      const traceId = ids.generateTraceId();
      const flag = i % 4 === 0 ? undefined : `00-${traceId}-${SPAN}-0${i % 2}`;
      const { edge, owner, consumer } = journey(name, ratio, rule, flag);
      outcomes.add(`${edge} ${owner} ${consumer}`);
    }
    // Both outcomes happen (so the loop tested something), and only these two.
    expect([...outcomes].sort()).toEqual(['false false false', 'true true true']);
  });
});

describe('the id generator', () => {
  it.each([0.0001, 0.01, 0.5, 1])('gives the root the edge kept at %s a trace id the SDK ratio sampler samples', (ratio) => {
    const sampler = new TraceIdRatioBasedSampler(ratio);
    const ids = new EdgeIdGenerator(sampler, ratio, Math.random);
    for (let i = 0; i < 500; i += 1) {
      ids.keepNextRoot = true;
      const id = ids.generateTraceId();
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(sampler.shouldSample(ROOT_CONTEXT, id).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
      expect(ids.keepNextRoot).toBe(false);
    }
  });

  it('gives every other root a random trace id, and spans random span ids', () => {
    const sampler = new TraceIdRatioBasedSampler(0.01);
    const ids = new EdgeIdGenerator(sampler, 0.01, Math.random);
    const traceIds = Array.from({ length: 500 }, () => ids.generateTraceId());
    const sampled = traceIds.filter((id) => sampler.shouldSample(ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED);
    expect(sampled.length).toBeLessThan(25);
    expect(new Set(traceIds).size).toBe(500);
    expect(ids.generateSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('forgets a kept draw when the next request comes (its span was never started)', () => {
    const s = createSampling('parentbased_traceidratio', 0.5, 'ratio', () => 0.1);
    expect(s.keepsIncoming({ headers: {} } as IncomingMessage)).toBe(true);
    expect((s.idGenerator as EdgeIdGenerator).keepNextRoot).toBe(true);
    expect(s.keepsIncoming({ headers: { traceparent: `00-${DROPPED_AT_HALF}-${SPAN}-01` } } as unknown as IncomingMessage)).toBe(false);
    expect((s.idGenerator as EdgeIdGenerator).keepNextRoot).toBe(false);
  });
});

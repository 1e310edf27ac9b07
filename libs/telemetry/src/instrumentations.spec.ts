import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import type { IORedisInstrumentationConfig } from '@opentelemetry/instrumentation-ioredis';
import type { PgInstrumentationConfig } from '@opentelemetry/instrumentation-pg';
import { INSTRUMENTED_MODULES } from './hooked-modules.js';
import { createInstrumentations, isProbeOrScrape, redisStatement } from './instrumentations.js';

describe('the instrumentations', () => {
  const instrumentations = createInstrumentations();
  const byName = (suffix: string) => instrumentations.find((i) => i.instrumentationName.endsWith(suffix))!;

  it('are made disabled, for registerInstrumentations to enable with the provider', () => {
    expect(instrumentations.map((i) => [i.instrumentationName, i.getConfig().enabled])).toEqual([
      ['@opentelemetry/instrumentation-http', false],
      ['@opentelemetry/instrumentation-grpc', false],
      ['@opentelemetry/instrumentation-pg', false],
      ['@opentelemetry/instrumentation-ioredis', false],
    ]);
  });

  it('patch exactly the modules the ESM hook wraps', () => {
    const patched = instrumentations.flatMap((i) => (i as InstrumentationBase).getModuleDefinitions().map((d) => d.name));
    expect([...new Set(patched)].sort()).toEqual([...INSTRUMENTED_MODULES].sort());
  });

  it("leave incoming requests to the edge's server spans (edge-server.ts)", () => {
    const config = byName('http').getConfig() as HttpInstrumentationConfig;
    expect([config.disableIncomingRequestInstrumentation, config.ignoreIncomingRequestHook]).toEqual([true, undefined]);
  });

  it('tell a probe or a scrape from any other request, whatever its query, by its path alone', () => {
    const probes = ['/health/live?keep', '/health/ready', '/health/ready?verbose=1', '/metrics', '/metrics?keep'];
    expect(probes.map(isProbeOrScrape)).toEqual([true, true, true, true, true]);
    const others = ['/api/v1/clips?keep', '/metrics/keep', '/healthz?keep', '/api/health/live?keep', '/keep', '/metricsz', '/'];
    expect(others.map(isProbeOrScrape)).toEqual(others.map(() => false));
  });

  it("make no outgoing HTTP span with no span around it (a timer's call)", () => {
    const config = byName('http').getConfig() as HttpInstrumentationConfig;
    expect(config.requireParentforOutgoingSpans).toBe(true);
    expect(isProbeOrScrape(undefined)).toBe(false);
  });

  it('keep query parameters out of pg spans, and make none outside a traced piece of work', () => {
    const config = byName('pg').getConfig() as PgInstrumentationConfig;
    expect([config.requireParentSpan, config.enhancedDatabaseReporting ?? false, config.addSqlCommenterCommentToQueries ?? false]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('make no ioredis span outside a traced piece of work, and name commands without their values', () => {
    const config = byName('ioredis').getConfig() as IORedisInstrumentationConfig;
    expect(config.requireParentSpan).toBe(true);
    expect(config.dbStatementSerializer).toBe(redisStatement);
  });
});

describe('redisStatement: a command and how many keys it touches, never a value', () => {
  it.each<[string, unknown[], string]>([
    ['set', ['clipit:session:abc', 'secret-token', 'PX', 60000], 'set 1 key'],
    ['GET', ['clipit:session:abc'], 'get 1 key'],
    ['hset', ['clipit:h', 'field', 'secret-token'], 'hset 1 key'],
    ['evalsha', ['d2a3f1', '3', 'bull:media:wait', 'bull:media:active', 'bull:media:id', 'secret-token'], 'evalsha 3 keys'],
    ['eval', ['return 1', 0], 'eval 0 keys'],
    ['del', ['a', 'b', 'c'], 'del 3 keys'],
    ['mget', ['a', 'b'], 'mget 2 keys'],
    ['mset', ['a', 'secret-token', 'b', 'secret-token'], 'mset 2 keys'],
    ['brpop', ['a', 'b', 5], 'brpop 2 keys'],
    ['ping', [], 'ping 0 keys'],
    ['info', ['memory'], 'info 0 keys'],
    ['publish', ['channel', 'secret-token'], 'publish 0 keys'],
  ])('%s %j is "%s"', (command, args, statement) => {
    expect(redisStatement(command, args)).toBe(statement);
  });
});

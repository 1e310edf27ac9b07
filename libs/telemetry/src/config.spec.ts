import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTelemetryConfig, TELEMETRY_VARIABLES, TelemetryConfigError, type TelemetryConfig, type TelemetrySetup } from './config.js';

const ENTRY = '/app/services/identity/dist/main.js';
const COLLECTOR = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' };

function on(env: NodeJS.ProcessEnv, entry: string | undefined = ENTRY): TelemetryConfig {
  const setup = readTelemetryConfig(env, entry);
  if (!setup.enabled) throw new Error(`expected tracing on, got off: ${setup.reason}`);
  return setup.config;
}

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    readTelemetryConfig(env, ENTRY);
  } catch (err) {
    if (err instanceof TelemetryConfigError) return err.message;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('telemetry configuration: when tracing is off', () => {
  it.each<[string, NodeJS.ProcessEnv, string | undefined, string]>([
    ['no endpoint at all', {}, ENTRY, 'no collector'],
    ['an empty endpoint (empty is unset)', { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, ENTRY, 'no collector'],
    ['the SDK disabled', { ...COLLECTOR, OTEL_SDK_DISABLED: 'true' }, ENTRY, 'OTEL_SDK_DISABLED=true'],
    ['the SDK disabled, any case', { ...COLLECTOR, OTEL_SDK_DISABLED: 'TRUE' }, ENTRY, 'OTEL_SDK_DISABLED=true'],
    ['no exporter', { ...COLLECTOR, OTEL_TRACES_EXPORTER: 'none' }, ENTRY, 'OTEL_TRACES_EXPORTER=none'],
    ['a process that is no service (the health check)', COLLECTOR, '/app/deploy/docker/healthcheck.mjs', 'not a service'],
    ['no entry script (node -e)', COLLECTOR, undefined, 'not a service'],
  ])('is off with %s', (_, env, entry, reason) => {
    const setup: TelemetrySetup = readTelemetryConfig(env, entry);
    expect(setup.enabled).toBe(false);
    expect(setup.enabled ? '' : setup.reason).toContain(reason);
  });

  it('is on with either endpoint, a disabled flag of false, and the otlp exporter', () => {
    expect(on(COLLECTOR).url).toBe('http://jaeger:4318/v1/traces');
    expect(on({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces' }).url).toBe(
      'https://collector.example/otlp/traces',
    );
    expect(on({ ...COLLECTOR, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }).url).toBe('http://jaeger:4318/v1/traces');
  });

  it('still checks every variable when off, so a typo stops the process wherever it is', () => {
    expect(() => readTelemetryConfig({ OTEL_TRACES_SAMPLER: 'sometimes' }, ENTRY)).toThrow(TelemetryConfigError);
    expect(() => readTelemetryConfig({ OTEL_SDK_DISABLED: 'true', OTEL_BSP_SCHEDULE_DELAY: 'soon' }, '/app/x.mjs')).toThrow(
      TelemetryConfigError,
    );
  });
});

describe('telemetry configuration: the variables', () => {
  it('takes the defaults of the specification and of ADR 0054', () => {
    expect(on(COLLECTOR)).toEqual({
      url: 'http://jaeger:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      exportRequestTimeoutMs: 10000,
      sampler: 'parentbased_always_on',
      ratio: 1,
      remoteParent: 'ratio',
      resourceAttributes: { 'service.name': 'identity' },
      serviceDir: '/app/services/identity',
      batch: { scheduledDelayMillis: 200, maxQueueSize: 2048, maxExportBatchSize: 512, exportTimeoutMillis: 30000 },
    });
  });

  it('appends /v1/traces to the base endpoint once, and takes the traces endpoint as it is, over the base', () => {
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318/' }).url).toBe('http://jaeger:4318/v1/traces');
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://gw/otel' }).url).toBe('http://gw/otel/v1/traces');
    expect(on({ ...COLLECTOR, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:4318/custom' }).url).toBe('http://other:4318/custom');
  });

  it('reads the protocol, the traces one over the general one', () => {
    expect(on({ ...COLLECTOR, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(
      on({ ...COLLECTOR, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol,
    ).toBe('http/protobuf');
    expect(on({ ...COLLECTOR, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
  });

  it('reads the headers (percent-decoded) and the export timeout', () => {
    const config = on({
      ...COLLECTOR,
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%3D%3D, x-tenant = clipit',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
    });
    expect(config.headers).toEqual({ 'api-key': 'abc==', 'x-tenant': 'clipit' });
    expect(config.exportRequestTimeoutMs).toBe(2500);
  });

  it.each([
    ['always_on'],
    ['always_off'],
    ['traceidratio'],
    ['parentbased_always_on'],
    ['parentbased_always_off'],
    ['parentbased_traceidratio'],
  ] as const)('takes the sampler %s', (sampler) => {
    expect(on({ ...COLLECTOR, OTEL_TRACES_SAMPLER: sampler }).sampler).toBe(sampler);
  });

  it('reads the ratio and the rule for remote parents', () => {
    const config = on({
      ...COLLECTOR,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.01',
      TRACE_REMOTE_PARENT: 'follow',
    });
    expect([config.ratio, config.remoteParent]).toEqual([0.01, 'follow']);
    expect(on({ ...COLLECTOR, OTEL_TRACES_SAMPLER_ARG: '0' }).ratio).toBe(0);
    expect(on({ ...COLLECTOR, OTEL_TRACES_SAMPLER_ARG: '1' }).ratio).toBe(1);
    expect(on({ ...COLLECTOR, TRACE_REMOTE_PARENT: 'ratio' }).remoteParent).toBe('ratio');
  });

  it('names the service from OTEL_SERVICE_NAME, then OTEL_RESOURCE_ATTRIBUTES, then the entry folder', () => {
    expect(on(COLLECTOR, '/srv/clipit/services/media-worker/dist/main.js').resourceAttributes).toEqual({ 'service.name': 'media-worker' });
    const withAttributes = on({ ...COLLECTOR, OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.name=from-attributes' });
    expect(withAttributes.resourceAttributes).toEqual({ 'deployment.environment.name': 'prod', 'service.name': 'from-attributes' });
    expect(
      on({ ...COLLECTOR, OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes', OTEL_SERVICE_NAME: 'gateway' }).resourceAttributes,
    ).toEqual({
      'service.name': 'gateway',
    });
    // A process that is no service is traced once it is named.
    const named = on({ ...COLLECTOR, OTEL_SERVICE_NAME: 'replay' }, '/app/scripts/replay.mjs');
    expect([named.resourceAttributes['service.name'], named.serviceDir]).toEqual(['replay', undefined]);
  });

  it('reads the batch processor settings', () => {
    const config = on({
      ...COLLECTOR,
      OTEL_BSP_SCHEDULE_DELAY: '5000',
      OTEL_BSP_MAX_QUEUE_SIZE: '4096',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1024',
      OTEL_BSP_EXPORT_TIMEOUT: '5000',
    });
    expect(config.batch).toEqual({ scheduledDelayMillis: 5000, maxQueueSize: 4096, maxExportBatchSize: 1024, exportTimeoutMillis: 5000 });
  });
});

describe('telemetry configuration: the refusals', () => {
  it.each<[string, string, string]>([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'jaeger:4318', 'expected an http:// or https:// URL'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'grpc://jaeger:4317', 'expected an http:// or https:// URL'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc', 'the OTLP/gRPC exporter is not installed'],
    ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'grpc', 'the OTLP/gRPC exporter is not installed'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'http/thrift', 'expected one of http/protobuf, http/json'],
    ['OTEL_EXPORTER_OTLP_TIMEOUT', '2s', 'expected a whole number of at least 1'],
    ['OTEL_EXPORTER_OTLP_TIMEOUT', '0', 'expected a whole number of at least 1'],
    ['OTEL_TRACES_SAMPLER', 'jaeger_remote', 'expected one of always_on, always_off, traceidratio'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5', 'expected a ratio from 0 to 1'],
    ['OTEL_TRACES_SAMPLER_ARG', '-0.1', 'expected a ratio from 0 to 1'],
    ['OTEL_TRACES_SAMPLER_ARG', 'half', 'expected a ratio from 0 to 1'],
    ['OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name', 'expected key=value pairs'],
    ['OTEL_RESOURCE_ATTRIBUTES', 'team=%E0%A4%A', 'the value of team is not valid percent-encoding'],
    ['OTEL_SDK_DISABLED', 'yes', 'expected one of true, false'],
    ['OTEL_TRACES_EXPORTER', 'zipkin', 'expected one of otlp, none'],
    ['OTEL_BSP_SCHEDULE_DELAY', '5s', 'expected a whole number of at least 1'],
    ['OTEL_BSP_MAX_QUEUE_SIZE', '0', 'expected a whole number of at least 1'],
    ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', '1.5', 'expected a whole number of at least 1'],
    ['OTEL_BSP_EXPORT_TIMEOUT', '-1', 'expected a whole number of at least 1'],
    ['TRACE_REMOTE_PARENT', 'always', 'expected one of ratio, follow'],
  ])('refuses %s=%s, naming the variable and its value', (name, value, why) => {
    const message = refusal({ ...COLLECTOR, [name]: value });
    expect(message).toContain(`${name}=${JSON.stringify(value)} is invalid: ${why}`);
    expect(message).toContain('See deploy/.env.example');
  });

  it('refuses a batch larger than the queue', () => {
    expect(refusal({ ...COLLECTOR, OTEL_BSP_MAX_QUEUE_SIZE: '100' })).toContain(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE is invalid: a batch cannot be larger than the queue (OTEL_BSP_MAX_QUEUE_SIZE=100)',
    );
  });

  it('names bad headers without showing them: they may hold a key', () => {
    const message = refusal({ ...COLLECTOR, OTEL_EXPORTER_OTLP_HEADERS: 'Bearer s3cr3t-key' });
    expect(message).toContain('OTEL_EXPORTER_OTLP_HEADERS is invalid: expected key=value pairs');
    expect(message).not.toContain('s3cr3t');
  });

  it('lists every problem at once', () => {
    const message = refusal({ OTEL_TRACES_SAMPLER: 'x', TRACE_REMOTE_PARENT: 'y', OTEL_BSP_MAX_QUEUE_SIZE: 'z' });
    expect(message.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(3);
  });
});

describe('telemetry configuration and deploy/.env.example', () => {
  const example = Object.fromEntries(
    readFileSync(fileURLToPath(new URL('../../../deploy/.env.example', import.meta.url)), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );

  it('lists every variable the preload reads', () => {
    expect(TELEMETRY_VARIABLES.filter((name) => !(name in example))).toEqual([]);
  });

  it("shows the preload's defaults: the example's values read as no values at all", () => {
    const fromExample = Object.fromEntries(TELEMETRY_VARIABLES.map((name) => [name, example[name]]));
    expect(readTelemetryConfig({ ...fromExample, ...COLLECTOR }, ENTRY)).toEqual(readTelemetryConfig(COLLECTOR, ENTRY));
    expect(readTelemetryConfig(fromExample, ENTRY).enabled).toBe(false);
  });
});

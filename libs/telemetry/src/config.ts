// The preload's settings, read from the environment once at start. This module imports nothing: the
// preload runs it in every process, and with tracing off it must be all that is loaded (ADR 0054).

/** Every variable the preload reads (all of them documented in deploy/.env.example). */
export const TELEMETRY_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'TRACE_REMOTE_PARENT',
] as const;

export type TelemetryVariable = (typeof TELEMETRY_VARIABLES)[number];

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * How a span whose parent came from another process is decided. `ratio`: by the root sampler on its trace
 * id, so a caller's flag never forces recording (every process shares the ratio, so all decide alike);
 * `follow`: the parent's flag decides (tests flag the journeys they follow).
 */
export type RemoteParentRule = 'ratio' | 'follow';

export interface TelemetryConfig {
  /** Where spans are posted: the traces URL, whole. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** Each export request's time limit (10 s by default, as the specification's). */
  exportRequestTimeoutMs: number;
  sampler: SamplerName;
  /** 0 to 1; read by the ratio samplers only. */
  ratio: number;
  remoteParent: RemoteParentRule;
  /** OTEL_RESOURCE_ATTRIBUTES with OTEL_SERVICE_NAME (or the entry's service) as `service.name`. */
  resourceAttributes: Record<string, string>;
  /** The service's own folder (services/<name>) when the entry is its dist/main.js: where its version is read. */
  serviceDir: string | undefined;
  batch: {
    scheduledDelayMillis: number;
    maxQueueSize: number;
    maxExportBatchSize: number;
    exportTimeoutMillis: number;
  };
}

export type TelemetrySetup = { enabled: true; config: TelemetryConfig } | { enabled: false; reason: string };

/** A variable with a value the preload cannot use: the process stops with exit code 78, as a ConfigError does. */
export class TelemetryConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}\nSee deploy/.env.example for every variable and its default.`);
    this.name = 'TelemetryConfigError';
  }
}

const ENTRY = /^(.*[\\/]services[\\/]([a-z0-9][a-z0-9-]*))[\\/]dist[\\/]main\.js$/;

/**
 * Reads the preload's variables. Every one is checked, on or off, so a typo stops the process wherever it
 * is. Tracing is off with no collector (neither endpoint set), with OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none, and in a process that is no service (a health check, a script) unless it is
 * named by OTEL_SERVICE_NAME. `entry` is the main script's path (process.argv[1]).
 */
export function readTelemetryConfig(env: NodeJS.ProcessEnv, entry: string | undefined): TelemetrySetup {
  const problems: string[] = [];
  const read = (name: TelemetryVariable): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const invalid = (name: TelemetryVariable, why: string, { hideValue = false } = {}) => {
    const value = hideValue ? undefined : read(name);
    problems.push(value === undefined ? `${name} is invalid: ${why}` : `${name}=${JSON.stringify(value)} is invalid: ${why}`);
  };
  const oneOf = <T extends string>(name: TelemetryVariable, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = raw.toLowerCase();
    if ((allowed as readonly string[]).includes(value)) return value as T;
    invalid(name, `expected one of ${allowed.join(', ')}`);
    return fallback;
  };
  const integer = (name: TelemetryVariable, fallback: number, min: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      invalid(name, `expected a whole number of at least ${min}`);
      return fallback;
    }
    return Number(raw);
  };
  const url = (name: TelemetryVariable): string | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return raw;
    } catch {
      // reported below
    }
    invalid(name, 'expected an http:// or https:// URL');
    return undefined;
  };

  const baseEndpoint = url('OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesEndpoint = url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const disabled = oneOf('OTEL_SDK_DISABLED', ['true', 'false'], 'false') === 'true';
  const exporter = oneOf('OTEL_TRACES_EXPORTER', ['otlp', 'none'], 'otlp');

  const protocolOf = (name: TelemetryVariable) => {
    if (read(name)?.toLowerCase() === 'grpc') {
      invalid(name, 'the OTLP/gRPC exporter is not installed; use http/protobuf or http/json');
      return undefined;
    }
    return read(name) === undefined ? undefined : oneOf(name, ['http/protobuf', 'http/json'] as const, 'http/protobuf');
  };
  const tracesProtocol = protocolOf('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
  const generalProtocol = protocolOf('OTEL_EXPORTER_OTLP_PROTOCOL');
  const protocol = tracesProtocol ?? generalProtocol ?? 'http/protobuf';

  // The headers may hold a collector's key: a bad one is named, never shown.
  const headers = keyValueList(read('OTEL_EXPORTER_OTLP_HEADERS'), (why) =>
    invalid('OTEL_EXPORTER_OTLP_HEADERS', why, { hideValue: true }),
  );
  const timeout = integer('OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, 1);

  const sampler = oneOf('OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  let ratio = 1;
  const ratioRaw = read('OTEL_TRACES_SAMPLER_ARG');
  if (ratioRaw !== undefined) {
    const n = Number(ratioRaw);
    if (!/^(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(ratioRaw) || !(n >= 0 && n <= 1))
      invalid('OTEL_TRACES_SAMPLER_ARG', 'expected a ratio from 0 to 1');
    else ratio = n;
  }
  const remoteParent = oneOf('TRACE_REMOTE_PARENT', ['ratio', 'follow'] as const, 'ratio');

  const resourceAttributes = keyValueList(read('OTEL_RESOURCE_ATTRIBUTES'), (why) => invalid('OTEL_RESOURCE_ATTRIBUTES', why));
  const entryMatch = entry === undefined ? null : ENTRY.exec(entry);
  const serviceName = read('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? entryMatch?.[2];
  if (serviceName !== undefined) resourceAttributes['service.name'] = serviceName;

  const batch = {
    // 200 ms, not the specification's 5 s: a span waits less in memory, and a batch is serialised in a shorter
    // pause of the event loop (a 512-span batch held the gateway's answers for milliseconds; ADR 0054, section 12).
    scheduledDelayMillis: integer('OTEL_BSP_SCHEDULE_DELAY', 200, 1),
    maxQueueSize: integer('OTEL_BSP_MAX_QUEUE_SIZE', 2_048, 1),
    maxExportBatchSize: integer('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1),
    exportTimeoutMillis: integer('OTEL_BSP_EXPORT_TIMEOUT', 30_000, 1),
  };
  if (batch.maxExportBatchSize > batch.maxQueueSize) {
    invalid('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', `a batch cannot be larger than the queue (OTEL_BSP_MAX_QUEUE_SIZE=${batch.maxQueueSize})`);
  }

  if (problems.length > 0) throw new TelemetryConfigError(problems);

  if (disabled) return { enabled: false, reason: 'OTEL_SDK_DISABLED=true' };
  if (exporter === 'none') return { enabled: false, reason: 'OTEL_TRACES_EXPORTER=none' };
  const target = tracesEndpoint ?? (baseEndpoint === undefined ? undefined : `${baseEndpoint.replace(/\/+$/, '')}/v1/traces`);
  if (target === undefined) return { enabled: false, reason: 'no collector: OTEL_EXPORTER_OTLP_ENDPOINT is not set' };
  if (serviceName === undefined) return { enabled: false, reason: 'not a service entry and no OTEL_SERVICE_NAME' };

  return {
    enabled: true,
    config: {
      url: target,
      protocol,
      headers,
      exportRequestTimeoutMs: timeout,
      sampler,
      ratio,
      remoteParent,
      resourceAttributes,
      serviceDir: entryMatch?.[1],
      batch,
    },
  };
}

/** The specification's `key=value,key=value` list (headers, resource attributes), values percent-decoded. */
function keyValueList(raw: string | undefined, problem: (why: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  for (const item of raw.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    const key = eq < 0 ? '' : item.slice(0, eq).trim();
    if (key === '') {
      problem('expected key=value pairs separated by commas');
      return {};
    }
    try {
      out[key] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      problem(`the value of ${key} is not valid percent-encoding`);
      return {};
    }
  }
  return out;
}

// The SDK, loaded by the preload only when tracing is on, after the ESM hook is in place.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { context, diag, DiagLogLevel, propagation, trace, type DiagLogFunction } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { TelemetryConfig } from './config.js';
import { setTelemetryHandle } from './handle.js';
import { createInstrumentations } from './instrumentations.js';
import { createSampling } from './sampling.js';
import { EdgeContextManager, EdgePropagator } from './edge-context.js';
import { EDGE_HTTP_SCOPE, traceKeptRequests } from './edge-server.js';
import { ThreadExporter } from './export-thread.js';

/** Starts tracing for this process: the provider, the context manager, the propagator, the instrumentations. */
export function startTelemetry(config: TelemetryConfig): void {
  // The SDK's own errors (a collector that refuses or is away) as one JSON line each, like the services' logs.
  const error: DiagLogFunction = (message, ...args) =>
    process.stderr.write(
      `${JSON.stringify({ level: 50, time: Date.now(), name: 'telemetry', msg: [message, ...args.map(String)].join(' ') })}\n`,
    );
  const quiet: DiagLogFunction = () => undefined;
  diag.setLogger({ error, warn: quiet, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.ERROR);

  // Posted from a thread of its own, so that the exports' HTTP requests stay out of the answers' way.
  const exporter = new ThreadExporter({
    url: config.url,
    protocol: config.protocol,
    headers: config.headers,
    timeoutMillis: config.exportRequestTimeoutMs,
  });

  const sampling = createSampling(config.sampler, config.ratio, config.remoteParent);
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(resourceAttributes(config))),
    sampler: sampling.sampler,
    idGenerator: sampling.idGenerator,
    // A full queue drops spans; nothing waits on the collector.
    spanProcessors: [new BatchSpanProcessor({ exporter, ...config.batch })],
  });
  context.setGlobalContextManager(new EdgeContextManager().enable());
  // Trace context only: no baggage crosses the platform's boundaries.
  propagation.setGlobalPropagator(new EdgePropagator());
  trace.setGlobalTracerProvider(provider);
  // The edge's decision, and the server span of what it keeps.
  traceKeptRequests(provider.getTracer(EDGE_HTTP_SCOPE), sampling.keepsIncoming);
  registerInstrumentations({ instrumentations: createInstrumentations(), tracerProvider: provider });
  setTelemetryHandle({ shutdown: () => provider.shutdown() });
}

/** The service's identity, under what OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME (already in it) say. */
export function resourceAttributes(config: TelemetryConfig): Record<string, string> {
  const version = config.serviceDir === undefined ? undefined : packageVersion(join(config.serviceDir, 'package.json'));
  return {
    'service.namespace': 'clipit',
    // In Kubernetes the host name is the pod's.
    'service.instance.id': `${hostname()}:${process.pid}`,
    ...(version === undefined ? {} : { 'service.version': version }),
    ...config.resourceAttributes,
  };
}

function packageVersion(file: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

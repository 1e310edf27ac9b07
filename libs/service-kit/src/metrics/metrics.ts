import { Controller, Get, Header } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process; every service exposes it at GET /metrics in the Prometheus text format. */
export const metricsRegistry = new Registry();
let defaultsCollected = false;

export function initMetrics(service: string): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry });
}

/**
 * The metric registered under `name`, made by `make` the first time: tests start a service several
 * times in one process, and the registry is per process.
 */
export function metricOnce<T>(name: string, make: () => T): T {
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? make();
}

export const httpRequestDuration = metricOnce(
  'http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [metricsRegistry],
    }),
);

export const grpcServerHandled = metricOnce(
  'grpc_server_handled_total',
  () =>
    new Counter({
      name: 'grpc_server_handled_total',
      help: 'gRPC calls handled by method and status code',
      labelNames: ['method', 'code'],
      registers: [metricsRegistry],
    }),
);

export const eventsPublished = metricOnce(
  'events_published_total',
  () =>
    new Counter({
      name: 'events_published_total',
      help: 'Events published to the stream (by the outbox relay, or directly by a publisher such as the media worker)',
      labelNames: ['type'],
      registers: [metricsRegistry],
    }),
);

export const outboxPending = metricOnce(
  'outbox_pending_events',
  () =>
    new Gauge({
      name: 'outbox_pending_events',
      help: 'Outbox rows not yet published, as last seen by the relay',
      registers: [metricsRegistry],
    }),
);

export const eventsHandled = metricOnce(
  'events_handled_total',
  () =>
    new Counter({
      name: 'events_handled_total',
      help: 'Events a consumer finished, by outcome (handled, duplicate, ignored, retried, dead-lettered)',
      labelNames: ['consumer', 'type', 'outcome'],
      registers: [metricsRegistry],
    }),
);

/** Always 1, labelled with the version the service runs: which build answers, per replica. */
export const serviceInfo = metricOnce(
  'service_info',
  () =>
    new Gauge({ name: 'service_info', help: 'The running service and its version', labelNames: ['version'], registers: [metricsRegistry] }),
);

@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}

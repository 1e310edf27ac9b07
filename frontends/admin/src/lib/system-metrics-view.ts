import type { BadgeVariant } from '@clipit/ui';
import type { SystemMetric } from '@clipit/web-api';

// How the System tab words and draws a sample of the platform's health (spec 02 §3 system_metrics, ADR 0039).

export type MetricType = SystemMetric['metricType'];

/** The sections of the tab, in order. */
export const METRIC_SECTIONS: ReadonlyArray<{ type: MetricType; title: string }> = [
  { type: 'readiness', title: 'Service readiness' },
  { type: 'queue_depth', title: 'Queue depth' },
  { type: 'dead_letters', title: 'Dead-lettered events' },
  { type: 'consumer_lag', title: 'Consumer lag' },
];

export const STATUS_BADGE: Record<SystemMetric['status'], { label: string; variant: BadgeVariant }> = {
  ok: { label: 'OK', variant: 'success' },
  warning: { label: 'Warning', variant: 'warning' },
  critical: { label: 'Critical', variant: 'destructive' },
};

const whole = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The latest value with its unit: 'Ready', 'Degraded', 'Not ready' for readiness, '12 jobs' for a count. */
export function valueText(metric: Pick<SystemMetric, 'metricType' | 'value' | 'unit'>): string {
  if (metric.value === null) return 'Not measured';
  if (metric.metricType === 'readiness') return metric.value >= 1 ? 'Ready' : metric.value > 0 ? 'Degraded' : 'Not ready';
  return `${whole(metric.value)} ${metric.unit}`;
}

/** What the status is measured against: the threshold, and where it turns critical. */
export function thresholdText(metric: Pick<SystemMetric, 'metricType' | 'threshold' | 'unit' | 'metadata'>): string {
  if (metric.threshold === null) return 'No threshold';
  if (metric.metricType === 'readiness') return 'Threshold: ready (degraded is a warning)';
  const critical = metric.metadata['critical'];
  const base = `Threshold: ${whole(metric.threshold)} ${metric.unit}`;
  return typeof critical === 'number' ? `${base} (critical at ${whole(critical)})` : base;
}

/** The error a metric that could not be measured (or a service that did not answer) recorded, if any. */
export function errorText(metric: Pick<SystemMetric, 'metadata'>): string | null {
  const error = metric.metadata['error'];
  return typeof error === 'string' && error !== '' ? error : null;
}

export interface Sparkline {
  /** SVG path data: one segment per run of measured points (a gap where a bucket was not measured). */
  path: string;
  /** The last measured point, marked on the line. */
  last: { x: number; y: number } | null;
}

/**
 * The 24-hour series as a small line in a `width` x `height` box: time along x (the window ends at `end`),
 * values up y from 0 to the largest of the series and the threshold, so the threshold line fits too.
 */
export function sparkline(
  series: ReadonlyArray<{ at: string; value: number | null }>,
  opts: { width: number; height: number; end: number; windowMs?: number; threshold?: number | null },
): Sparkline {
  const windowMs = opts.windowMs ?? 24 * 3600 * 1000;
  const start = opts.end - windowMs;
  const top = Math.max(1, opts.threshold ?? 0, ...series.map((p) => p.value ?? 0));
  const pad = 2;
  const x = (at: number) => pad + ((Math.min(Math.max(at, start), opts.end) - start) / windowMs) * (opts.width - 2 * pad);
  const y = (v: number) => opts.height - pad - (v / top) * (opts.height - 2 * pad);
  let path = '';
  let pen = false;
  let last: Sparkline['last'] = null;
  for (const p of series) {
    if (p.value === null) {
      pen = false;
      continue;
    }
    const point = { x: Math.round(x(Date.parse(p.at)) * 10) / 10, y: Math.round(y(p.value) * 10) / 10 };
    path += `${pen ? 'L' : 'M'}${point.x} ${point.y} `;
    pen = true;
    last = point;
  }
  return { path: path.trim(), last };
}

/** The y of the threshold line in the same box (null for readiness, whose threshold is the top). */
export function thresholdY(metric: Pick<SystemMetric, 'metricType' | 'threshold' | 'series'>, height: number): number | null {
  if (metric.threshold === null || metric.metricType === 'readiness') return null;
  const top = Math.max(1, metric.threshold, ...metric.series.map((p) => p.value ?? 0));
  const pad = 2;
  return Math.round((height - pad - (metric.threshold / top) * (height - 2 * pad)) * 10) / 10;
}

// The platform's health as admin samples it (spec 02 §3 system_metrics, ADR 0039): what each metric is,
// its unit and thresholds, and the rule that turns a value into ok, warning or critical. Pure: no I/O.

export type MetricStatus = 'ok' | 'warning' | 'critical';

/** What a sample measures. */
export type MetricType = 'readiness' | 'queue_depth' | 'dead_letters' | 'consumer_lag';

/**
 * Where a metric turns bad. Counts are worse when higher: above `threshold` is a warning, at or above
 * `critical` is critical. Readiness is worse when lower (1 ready, 0.5 degraded, 0 not ready): below
 * `threshold` is a warning, at or below `critical` is critical.
 */
export interface MetricLimits {
  worse: 'higher' | 'lower';
  /** The level the metric should stay on the good side of; stored with each sample. */
  threshold: number;
  critical: number;
}

export interface MetricKind {
  unit: string;
  limits: MetricLimits;
}

/**
 * The thresholds. A queue holding more than a few minutes of work, an event nobody could handle, or a
 * consumer more than a burst behind is worth a look; ten times that is an incident.
 */
export const METRIC_KINDS: Record<MetricType, MetricKind> = {
  readiness: { unit: 'ready', limits: { worse: 'lower', threshold: 1, critical: 0 } },
  queue_depth: { unit: 'jobs', limits: { worse: 'higher', threshold: 100, critical: 1000 } },
  // Dead letters stay 30 days on their stream: any is a warning until someone looks (npm run dlq).
  dead_letters: { unit: 'events', limits: { worse: 'higher', threshold: 0, critical: 50 } },
  consumer_lag: { unit: 'messages', limits: { worse: 'higher', threshold: 500, critical: 5000 } },
};

/** The status of `value` against its limits. */
export function statusOf(value: number, limits: MetricLimits): MetricStatus {
  if (limits.worse === 'higher') {
    if (value >= limits.critical) return 'critical';
    return value > limits.threshold ? 'warning' : 'ok';
  }
  if (value <= limits.critical) return 'critical';
  return value < limits.threshold ? 'warning' : 'ok';
}

/** The readiness value of a /health/ready answer: 1 ready, 0.5 ready but degraded (a reported dependency down), 0 not ready. */
export function readinessValue(httpStatus: number, body: unknown): number {
  if (httpStatus !== 200) return 0;
  const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
  return status === 'degraded' ? 0.5 : 1;
}

/** One sample of one metric, before it is stored. */
export interface MetricSample {
  metricType: MetricType;
  metricName: string;
  /** Null when it could not be measured (see {@link unmeasured}). */
  value: number | null;
  unit: string;
  status: MetricStatus;
  threshold: number;
  metadata: Record<string, unknown>;
}

/** A measured value, with its status from its kind's limits. */
export function sample(metricType: MetricType, metricName: string, value: number, metadata: Record<string, unknown> = {}): MetricSample {
  const kind = METRIC_KINDS[metricType];
  return {
    metricType,
    metricName,
    value,
    unit: kind.unit,
    status: statusOf(value, kind.limits),
    threshold: kind.limits.threshold,
    metadata: { ...metadata, critical: kind.limits.critical },
  };
}

/**
 * A metric that could not be measured (its dependency did not answer): critical, with the error in its
 * metadata, so one unreachable part never stops the rest of the sample.
 */
export function unmeasured(
  metricType: MetricType,
  metricName: string,
  error: unknown,
  metadata: Record<string, unknown> = {},
): MetricSample {
  const kind = METRIC_KINDS[metricType];
  const message = error instanceof Error ? error.message : String(error);
  return {
    metricType,
    metricName,
    // Unknown, not zero: a chart shows a gap rather than a calm value.
    value: null,
    unit: kind.unit,
    status: 'critical',
    threshold: kind.limits.threshold,
    metadata: { ...metadata, critical: kind.limits.critical, error: message || 'unknown error' },
  };
}

/** Samples are kept this long, then deleted by the sampler. */
export const RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Samples older than this are deleted at `now`. */
export function retentionCutoff(now: Date): Date {
  return new Date(now.getTime() - RETENTION_MS);
}

/** The chart's window and its bucket: 24 hours in 96 points of 15 minutes. */
export const SERIES_WINDOW_MS = 24 * 3600 * 1000;
export const SERIES_BUCKET_MS = 15 * 60 * 1000;

/**
 * The sampling slot `now` falls in: every replica computes the same one, and only the first to claim a
 * slot samples it, so replicas never double a sample.
 */
export function samplingSlot(now: Date, intervalMs: number): Date {
  return new Date(Math.floor(now.getTime() / intervalMs) * intervalMs);
}

/** One service whose readiness is sampled: its name and the base URL of its HTTP server. */
export interface HealthTarget {
  name: string;
  url: string;
}

/**
 * Parses `name=http://host:port,…` (ADMIN_HEALTH_TARGETS); throws a sentence naming the first bad entry.
 * An empty list samples no readiness.
 */
export function parseHealthTargets(text: string): HealthTarget[] {
  const targets: HealthTarget[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const url =
      eq > 0
        ? entry
            .slice(eq + 1)
            .trim()
            .replace(/\/+$/, '')
        : '';
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`"${entry}" must be name=http://host:port with a lower-case service name`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"${entry}" must be name=http://host:port`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error(`"${entry}": the URL must start with http:// or https://`);
    if (targets.some((t) => t.name === name)) throw new Error(`"${name}" is listed twice`);
    targets.push({ name, url });
  }
  return targets;
}

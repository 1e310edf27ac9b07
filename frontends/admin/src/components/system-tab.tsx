import { Badge, formatDate, Skeleton, Spinner } from '@clipit/ui';
import type { SystemMetric } from '@clipit/web-api';
import { useId } from 'react';
import { useSystemMetrics } from '../lib/queries.js';
import { errorText, METRIC_SECTIONS, sparkline, STATUS_BADGE, thresholdText, thresholdY, valueText } from '../lib/system-metrics-view.js';
import { useFailureToast } from '../lib/use-failure-toast.js';

export const SYSTEM_METRICS_ERROR = 'Failed to fetch system metrics';

const CHART = { width: 160, height: 40 } as const;

/** The metric's last 24 hours as an inline SVG line, with its threshold dashed. */
function Sparkline({ metric, end }: { metric: SystemMetric; end: number }) {
  const line = sparkline(metric.series, { ...CHART, end, threshold: metric.threshold });
  const limit = thresholdY(metric, CHART.height);
  return (
    <svg
      className={`clipit-admin-spark clipit-admin-spark--${metric.status}`}
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      width={CHART.width}
      height={CHART.height}
      role="img"
      aria-label={`${metric.metricName}: last 24 hours`}
    >
      <line className="clipit-admin-spark__axis" x1="0" x2={CHART.width} y1={CHART.height - 2} y2={CHART.height - 2} />
      {limit !== null ? <line className="clipit-admin-spark__threshold" x1="0" x2={CHART.width} y1={limit} y2={limit} /> : null}
      {line.path ? <path className="clipit-admin-spark__line" d={line.path} /> : null}
      {line.last ? <circle className="clipit-admin-spark__dot" cx={line.last.x} cy={line.last.y} r="2.5" /> : null}
    </svg>
  );
}

/** One metric: its name, latest value with unit, status badge against its threshold, and its 24-hour chart. */
function MetricCard({ metric, end }: { metric: SystemMetric; end: number }) {
  const titleId = useId();
  const status = STATUS_BADGE[metric.status];
  const error = errorText(metric);
  return (
    <article className="clip-card clipit-admin-metric" aria-labelledby={titleId}>
      <header className="clipit-admin-entry__header">
        <h4 id={titleId} className="clipit-admin-metric__name">
          {metric.metricName}
        </h4>
        <Badge variant={status.variant}>{status.label}</Badge>
      </header>
      <p className="clipit-admin-metric__value">{valueText(metric)}</p>
      <p className="clipit-admin-muted clipit-admin-metric__threshold">{thresholdText(metric)}</p>
      {error ? <p className="clipit-admin-metric__error">{error}</p> : null}
      <Sparkline metric={metric} end={end} />
    </article>
  );
}

/** System: the platform's health as admin samples it every minute (spec 02 §3), refetched every 30 s. */
export function SystemTab() {
  const metrics = useSystemMetrics();
  useFailureToast(metrics.error, metrics.errorUpdatedAt, SYSTEM_METRICS_ERROR);

  if (metrics.isPending) {
    return (
      <div className="clipit-admin-list" aria-busy="true">
        <Spinner label="Loading system metrics" />
        {[0, 1].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
          </div>
        ))}
      </div>
    );
  }
  if (metrics.isError && !metrics.data) {
    return (
      <p className="clipit-admin-error-text" role="alert">
        {SYSTEM_METRICS_ERROR}
      </p>
    );
  }
  const { sampledAt, metrics: list } = metrics.data;
  if (!sampledAt || list.length === 0) {
    return (
      <p className="clipit-admin-empty">No system metrics yet. The first sample is taken within a minute of the admin service starting.</p>
    );
  }
  const end = Date.parse(sampledAt);
  return (
    <div className="clipit-admin-list">
      <p className="clipit-admin-muted">Last sampled {formatDate(sampledAt)}</p>
      {METRIC_SECTIONS.map(({ type, title }) => {
        const section = list.filter((m) => m.metricType === type);
        if (section.length === 0) return null;
        return (
          <section key={type} className="clipit-admin-metrics" aria-label={title}>
            <h3 className="clipit-admin-metrics__title">{title}</h3>
            <ul className="clipit-admin-metrics__grid">
              {section.map((m) => (
                <li key={m.id}>
                  <MetricCard metric={m} end={end} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

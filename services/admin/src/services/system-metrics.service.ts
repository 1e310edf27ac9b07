import type { adminV1 } from '@clipit/contracts';
import { CONFIG, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AdminConfig } from '../config.js';
import {
  METRIC_KINDS,
  retentionCutoff,
  samplingSlot,
  SERIES_BUCKET_MS,
  SERIES_WINDOW_MS,
  type MetricType,
} from '../domain/system-metrics.js';
import { PlatformProbes, REPLICA } from '../repositories/platform-probes.js';
import { SystemMetricsRepository } from '../repositories/system-metrics.repository.js';

export interface SampleResult {
  /** False when another replica had sampled this slot already. */
  sampled: boolean;
  metrics: number;
  deleted: number;
}

const LOWER_IS_WORSE = (Object.keys(METRIC_KINDS) as MetricType[]).filter((t) => METRIC_KINDS[t].limits.worse === 'lower');

/**
 * system_metrics (spec 02 §3; ADR 0039): samples the platform's health once per interval, whichever
 * replica claims the interval's slot first, keeps 7 days of it, and answers the latest sample with each
 * metric's 24 hours for the admin area's System tab.
 */
@Injectable()
export class SystemMetricsService {
  constructor(
    private readonly repo: SystemMetricsRepository,
    private readonly probes: PlatformProbes,
    @Inject(CONFIG) private readonly config: AdminConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** One sample at `now`, unless this interval's slot is already taken; then the sweep of samples past 7 days. */
  async sampleNow(now = new Date()): Promise<SampleResult> {
    const slot = samplingSlot(now, this.config.ADMIN_SYSTEM_METRICS_INTERVAL_MS);
    if (!(await this.repo.claimSlot(slot, REPLICA))) return { sampled: false, metrics: 0, deleted: 0 };
    const samples = await this.probes.sampleAll();
    const { deleted } = await this.repo.record(samples, now, retentionCutoff(now));
    const bad = samples.filter((s) => s.status !== 'ok').map((s) => `${s.metricType} ${s.metricName}: ${s.status}`);
    if (bad.length > 0) this.log.warn({ bad }, 'system metrics: not every metric is ok');
    return { sampled: true, metrics: samples.length, deleted };
  }

  /** The latest sample's metrics, each with its 24 hours up to `now`. */
  async overview(now = new Date()): Promise<adminV1.SystemMetrics> {
    const since = new Date(now.getTime() - SERIES_WINDOW_MS);
    // One after the other: the series, read second, holds every sample the latest one could be, so a metric
    // of the latest sample never comes without its newest point (a sample may land between the two reads).
    const latest = await this.repo.latest();
    const points = await this.repo.series(since, SERIES_BUCKET_MS, LOWER_IS_WORSE);
    const series = new Map<string, adminV1.SystemMetricPoint[]>();
    for (const p of points) {
      const key = `${p.metricType}\u0000${p.metricName}`;
      const list = series.get(key) ?? [];
      list.push({ at: p.at.toISOString(), ...(p.value !== null ? { value: p.value } : {}) });
      series.set(key, list);
    }
    return {
      ...(latest[0] ? { sampledAt: latest[0].createdAt.toISOString() } : {}),
      intervalMs: this.config.ADMIN_SYSTEM_METRICS_INTERVAL_MS,
      metrics: latest.map((m) => ({
        id: m.id,
        metricType: m.metricType,
        metricName: m.metricName,
        ...(m.value !== null ? { value: m.value } : {}),
        unit: m.unit,
        status: m.status,
        ...(m.threshold !== null ? { threshold: m.threshold } : {}),
        metadataJson: JSON.stringify(m.metadata),
        createdAt: m.createdAt.toISOString(),
        series: series.get(`${m.metricType}\u0000${m.metricName}`) ?? [],
      })),
    };
  }
}

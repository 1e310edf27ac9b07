import { CONFIG } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import type { MeasuredNorms } from '../domain/view-risk.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';

/**
 * The platform's engagement norms for the view-risk score (ADR 0049), measured in SQL and reused for
 * RISK_NORMS_CACHE_SECONDS: they move slowly, and the query scans every approved post.
 */
@Injectable()
export class EngagementNormsService {
  private readonly ttlMs: number;
  private cached: { norms: MeasuredNorms; until: number } | undefined;

  constructor(
    private readonly metrics: MetricsRepository,
    @Inject(CONFIG) config: SubmissionsConfig,
  ) {
    this.ttlMs = config.RISK_NORMS_CACHE_SECONDS * 1000;
  }

  /**
   * The norms, measured again when the cached ones are older than the TTL. Measured in the caller's
   * transaction: asking the pool for a second connection while the batch's rows are locked could wait on
   * connections that other batches hold while they wait for these rows.
   */
  async current(tx: EntityManager, now = Date.now()): Promise<MeasuredNorms> {
    if (this.cached && now < this.cached.until) return this.cached.norms;
    const norms = await this.metrics.engagementNorms(tx);
    this.cached = { norms, until: now + this.ttlMs };
    return norms;
  }
}

import { CONFIG } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { config, tx } from '../../test/support/unit-fixtures.js';
import type { SubmissionsConfig } from '../config.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { EngagementNormsService } from './engagement-norms.service.js';

// The platform's engagement norms: measured in the caller's transaction, reused for RISK_NORMS_CACHE_SECONDS.

describe('EngagementNormsService', () => {
  it('measures once, reuses the norms until the cache time is up, then measures again', async () => {
    const { service, mock } = createTestService(EngagementNormsService, {
      [CONFIG]: { ...config, RISK_NORMS_CACHE_SECONDS: 300 } as SubmissionsConfig,
    });
    const metrics = mock(MetricsRepository);
    const first = new Map([[4, { rate: 0.02, clips: 40 }]]);
    const second = new Map([[4, { rate: 0.03, clips: 41 }]]);
    metrics.engagementNorms.mockResolvedValueOnce(first).mockResolvedValueOnce(second);

    expect(await service.current(tx, 1_000_000)).toBe(first);
    expect(await service.current(tx, 1_000_000 + 299_999)).toBe(first);
    expect(metrics.engagementNorms).toHaveBeenCalledTimes(1);
    expect(metrics.engagementNorms).toHaveBeenCalledWith(tx);
    expect(await service.current(tx, 1_000_000 + 300_000)).toBe(second);
    expect(metrics.engagementNorms).toHaveBeenCalledTimes(2);
  });
});

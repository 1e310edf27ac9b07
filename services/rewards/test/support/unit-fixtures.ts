import type { EntityManager } from 'typeorm';
import { NO_POINTS } from '../../src/domain/rules.js';
import type { Standing } from '../../src/repositories/standing.repository.js';
import type { RewardsTables, TierRow } from '../../src/repositories/tiers.repository.js';

// What the application services' unit specs share: ids, stand-in managers, ADR 0025's tables and a
// standing row.

export const CLIPPER_ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
export const STREAMER_ID = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';
export const AT = new Date('2026-11-27T12:00:00.000Z');
export const DAY_MS = 86_400_000;
export const daysBefore = (days: number, from: Date = AT) => new Date(from.getTime() - days * DAY_MS);

/** The transaction a service opened or was given. */
export const tx = { marker: 'the transaction' } as unknown as EntityManager;
/** The manager of reads outside a transaction (a repository's `reader`). */
export const reader = { marker: 'the reader' } as unknown as EntityManager;

const row = (level: number, name: string, ratePerPost: number, total: number, inWindow: number, rate: number, views: number): TierRow => ({
  level,
  name,
  description: `${name} tier`,
  ratePerPost,
  minTotalApproved: total,
  windowWeeks: 4,
  minApprovedInWindow: inWindow,
  minApprovalRate: rate,
  minAvgViews: views,
});

/** ADR 0025's seed: the tiers and the follower-count steps. */
export const TABLES: RewardsTables = {
  tiers: [
    row(1, 'Bronze', 10, 0, 1, 0.5, 100),
    row(2, 'Silver', 15, 10, 5, 0.7, 500),
    row(3, 'Gold', 25, 25, 10, 0.8, 1500),
    row(4, 'Diamond', 40, 50, 20, 0.9, 5000),
  ],
  steps: [
    { minFollowers: 0, multiplier: 1.1 },
    { minFollowers: 100, multiplier: 1.25 },
    { minFollowers: 1000, multiplier: 1.5 },
    { minFollowers: 5000, multiplier: 1.75 },
    { minFollowers: 10000, multiplier: 2 },
  ],
};

/** CLIPPER_ID's stored standing: bronze, no points, revision 1, with `patch` over it. */
export function standing(patch: Partial<Standing> = {}): Standing {
  return {
    userId: CLIPPER_ID,
    clipPoints: 0,
    clipperTier: 'bronze',
    currentTier: 1,
    breakdown: { ...NO_POINTS },
    revision: 1,
    lastClipPointsUpdate: null,
    lastApprovedClipDate: null,
    ...patch,
  };
}

/** Makes a mocked repository's `reader` getter answer `reader` (automock leaves getters alone). */
export function withReader<T extends object>(repository: T): T {
  Object.defineProperty(repository, 'reader', { value: reader });
  return repository;
}

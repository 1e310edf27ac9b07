/**
 * The event consumer's production budgets: its defaults, and the defaults of the BUS_* variables every
 * service reads (config/config.ts), so each number is written once.
 */
export const CONSUMER_DEFAULTS = {
  ackWaitMs: 30_000,
  maxAttempts: 5,
  backoffMs: [1000, 5000, 15000, 30000],
  outageBackoffMs: [250, 500, 1000, 2000, 5000],
  /**
   * How long one pull request waits on the server. A pull lost with its consumer's leader (a node of a cluster
   * gone, ADR 0054) is noticed after two missed heartbeats, half of this each, and made again: at the client's
   * default (30 s), a service's events stood still that long after a node was lost.
   */
  pullExpiresMs: 5000,
} as const;

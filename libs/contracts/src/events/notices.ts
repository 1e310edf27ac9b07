/**
 * Notices: core NATS messages (not in the event stream, not kept) that tell running processes something
 * changed, for what a lost notice only delays (a cache's time limit covers it). Facts go through the
 * event stream; notices only prompt.
 */

/** The feed applied an event: what the public reads answer may have changed (gateways drop cached reads). */
export function feedChangedSubject(eventsPrefix = 'events'): string {
  return `notices.${eventsPrefix}.feed.changed`;
}

/** A feed-changed notice: the event type that changed the read models and when the feed applied it. */
export interface FeedChangedNotice {
  type: string;
  appliedAt: string;
}

/**
 * Rewards committed a change to what a user's dashboard shows (their standing, earnings, submissions,
 * payouts, wallet hold): gateways drop the cached dashboards of the users named, or of everyone.
 */
export function rewardsChangedSubject(eventsPrefix = 'events'): string {
  return `notices.${eventsPrefix}.rewards.changed`;
}

/** A rewards-changed notice: the users whose dashboards changed (`all`: anyone's may have), and why. */
export interface RewardsChangedNotice {
  userIds: string[];
  all?: boolean;
  cause: string;
}

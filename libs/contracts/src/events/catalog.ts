import type { z } from 'zod';
import { appealDecidedV1, appealFiledV1 } from './appeals/appeal-events.v1.js';
import { applicationSubmittedV1 } from './campaigns/application-events.v1.js';
import {
  campaignCompletedV1,
  campaignProgressV1,
  campaignReviewedV1,
  campaignSubmittedV1,
  clipperProfileChangedV1,
  hireRequestedV1,
  hireRatedV1,
  hireRespondedV1,
} from './campaigns/campaign-events.v1.js';
import { apiKeyRevokedV1 } from './developer/developer-events.v1.js';
import type { EventEnvelope } from './envelope.js';
import { tokenChangedV1 } from './identity/token-changed.v1.js';
import { sessionEndedV1, userSessionsEndedV1 } from './identity/session-events.v1.js';
import { userRegisteredV1 } from './identity/user-registered.v1.js';
import { userUpdatedV1 } from './identity/user-updated.v1.js';
import { userXLinkedV1 } from './identity/user-x-linked.v1.js';
import { mediaFailedV1, mediaFingerprintedV1, mediaProcessedV1 } from './media/media-events.v1.js';
import { metricsFetchedV1, metricsUpdatedV1 } from './metrics/metrics-events.v1.js';
import {
  rewardsEarningCreatedV1,
  rewardsEarningHeldV1,
  rewardsEarningReleasedV1,
  rewardsEarningVoidedV1,
  rewardsPayoutPaidV1,
  rewardsStandingChangedV1,
  rewardsStreamerMultiplierChangedV1,
} from './rewards/rewards-events.v1.js';
import {
  socialFollowedV1,
  socialLikedV1,
  socialLiveChangedV1,
  socialStreamTimeChangedV1,
  socialUnfollowedV1,
  socialUnlikedV1,
} from './social/social-events.v1.js';
import {
  submissionApprovedV1,
  submissionCreatedV1,
  submissionFeedChangedV1,
  submissionMatchesChangedV1,
  submissionRejectedV1,
  submissionVideoChangedV1,
} from './submissions/submission-events.v1.js';

import { webhookAttemptedV1 } from './webhook/webhook-events.v1.js';
/**
 * Every event type of the platform, with its owner, its version and its one schema.
 * Producers and consumers both read this table; a breaking change to a payload gets a new
 * version (a new entry and a new subject), never an edit in place.
 */
export const eventCatalog = {
  'user.registered': { source: 'identity', version: 1, schema: userRegisteredV1 },
  'user.updated': { source: 'identity', version: 1, schema: userUpdatedV1 },
  'session.ended': { source: 'identity', version: 1, schema: sessionEndedV1 },
  'user.sessions-ended': { source: 'identity', version: 1, schema: userSessionsEndedV1 },
  'token.changed': { source: 'identity', version: 1, schema: tokenChangedV1 },
  'user.x-linked': { source: 'identity', version: 1, schema: userXLinkedV1 },
  'submission.created': { source: 'submissions', version: 1, schema: submissionCreatedV1 },
  'submission.approved': { source: 'submissions', version: 1, schema: submissionApprovedV1 },
  'submission.rejected': { source: 'submissions', version: 1, schema: submissionRejectedV1 },
  'submission.feed-changed': { source: 'submissions', version: 1, schema: submissionFeedChangedV1 },
  'submission.video-changed': { source: 'submissions', version: 1, schema: submissionVideoChangedV1 },
  'submission.matches-changed': { source: 'submissions', version: 1, schema: submissionMatchesChangedV1 },
  'appeal.filed': { source: 'submissions', version: 1, schema: appealFiledV1 },
  'appeal.decided': { source: 'submissions', version: 1, schema: appealDecidedV1 },
  'media.processed': { source: 'media-worker', version: 1, schema: mediaProcessedV1 },
  'media.failed': { source: 'media-worker', version: 1, schema: mediaFailedV1 },
  'media.fingerprinted': { source: 'media-worker', version: 1, schema: mediaFingerprintedV1 },
  'metrics.fetched': { source: 'metrics-worker', version: 1, schema: metricsFetchedV1 },
  'metrics.updated': { source: 'submissions', version: 1, schema: metricsUpdatedV1 },
  'application.submitted': { source: 'campaigns', version: 1, schema: applicationSubmittedV1 },
  'campaign.submitted': { source: 'campaigns', version: 1, schema: campaignSubmittedV1 },
  'campaign.reviewed': { source: 'campaigns', version: 1, schema: campaignReviewedV1 },
  'campaign.progress': { source: 'campaigns', version: 1, schema: campaignProgressV1 },
  'campaign.completed': { source: 'campaigns', version: 1, schema: campaignCompletedV1 },
  'hire.requested': { source: 'campaigns', version: 1, schema: hireRequestedV1 },
  'hire.responded': { source: 'campaigns', version: 1, schema: hireRespondedV1 },
  'hire.rated': { source: 'campaigns', version: 1, schema: hireRatedV1 },
  'clipper-profile.changed': { source: 'campaigns', version: 1, schema: clipperProfileChangedV1 },
  'social.followed': { source: 'social', version: 1, schema: socialFollowedV1 },
  'social.unfollowed': { source: 'social', version: 1, schema: socialUnfollowedV1 },
  'social.liked': { source: 'social', version: 1, schema: socialLikedV1 },
  'social.unliked': { source: 'social', version: 1, schema: socialUnlikedV1 },
  'social.live-changed': { source: 'social', version: 1, schema: socialLiveChangedV1 },
  'social.stream-time-changed': { source: 'social', version: 1, schema: socialStreamTimeChangedV1 },
  'rewards.standing-changed': { source: 'rewards', version: 1, schema: rewardsStandingChangedV1 },
  'rewards.earning-created': { source: 'rewards', version: 1, schema: rewardsEarningCreatedV1 },
  'rewards.earning-held': { source: 'rewards', version: 1, schema: rewardsEarningHeldV1 },
  'rewards.earning-released': { source: 'rewards', version: 1, schema: rewardsEarningReleasedV1 },
  'rewards.earning-voided': { source: 'rewards', version: 1, schema: rewardsEarningVoidedV1 },
  'rewards.payout-paid': { source: 'rewards', version: 1, schema: rewardsPayoutPaidV1 },
  'rewards.streamer-multiplier-changed': { source: 'rewards', version: 1, schema: rewardsStreamerMultiplierChangedV1 },
  'apikey.revoked': { source: 'developer', version: 1, schema: apiKeyRevokedV1 },
  'webhook.attempted': { source: 'webhook-worker', version: 1, schema: webhookAttemptedV1 },
} as const satisfies Record<string, { source: string; version: number; schema: z.ZodType }>;

export type EventType = keyof typeof eventCatalog;
export type EventData<T extends EventType> = z.infer<(typeof eventCatalog)[T]['schema']>;

/** The discriminated union of every platform event. */
export type PlatformEvent = { [T in EventType]: EventEnvelope<T, EventData<T>> }[EventType];

export const eventTypes = Object.keys(eventCatalog) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventCatalog, type);
}

/**
 * The subject an event type is published on: `<prefix>.<source>.<type>.v<version>`.
 * The prefix is `events` in every deployment; tests give each run a prefix of its own.
 */
export function subjectFor(type: EventType, prefix = 'events'): string {
  const { source, version } = eventCatalog[type];
  return `${prefix}.${source}.${type}.v${version}`;
}

/** Checks an event's data against its type's schema; throws a ZodError naming the bad fields. */
export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  return eventCatalog[type].schema.parse(data) as EventData<T>;
}

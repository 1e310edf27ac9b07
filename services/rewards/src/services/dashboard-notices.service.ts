import { rewardsChangedSubject, type EventEnvelope, type RewardsChangedNotice } from '@clipit/contracts';
import { CONFIG, LOGGER, NATS_CONNECTION, type NatsConnection } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { RewardsConfig } from '../config.js';

/** The user whose dashboard an applied event changes, by type; a type not listed changes anyone's. */
const USER_OF: Record<string, (data: Record<string, unknown>) => unknown> = {
  'user.registered': (data) => (data['user'] as Record<string, unknown> | undefined)?.['id'],
  'user.updated': (data) => (data['user'] as Record<string, unknown> | undefined)?.['id'],
  'social.followed': (data) => data['userId'],
  'social.unfollowed': (data) => data['userId'],
  'submission.created': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'submission.approved': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'submission.rejected': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'submission.feed-changed': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'submission.video-changed': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'submission.matches-changed': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'metrics.updated': (data) => (data['submission'] as Record<string, unknown> | undefined)?.['userId'],
  'appeal.decided': (data) => (data['appeal'] as Record<string, unknown> | undefined)?.['userId'],
};

/**
 * Tells every gateway, after the commit, whose dashboard (GetDashboard) changed, so their cached answers
 * are dropped (ADR 0045): a core-NATS notice, like the feed's for its reads. Sent after an applied event
 * (the user it concerns), Refresh Points (the clipper) and each scheduled job (everyone: a payout run, the
 * recompute, a hold release). A lost notice only delays a change until the gateways' time limit.
 */
@Injectable()
export class DashboardNotices {
  private readonly subject: string;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) config: RewardsConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.subject = rewardsChangedSubject(config.EVENTS_SUBJECT_PREFIX);
  }

  /** The dashboards of these users changed. */
  users(userIds: string[], cause: string): void {
    this.send({ userIds, cause });
  }

  /** Anyone's dashboard may have changed. */
  everyone(cause: string): void {
    this.send({ userIds: [], all: true, cause });
  }

  /** After an applied event: its user's dashboard, or everyone's for a type that names no user. */
  afterEvent(event: EventEnvelope): void {
    const userId = USER_OF[event.type]?.(event.data as Record<string, unknown>);
    if (typeof userId === 'string' && userId) this.users([userId], event.type);
    else this.everyone(event.type);
  }

  private send(notice: RewardsChangedNotice): void {
    try {
      this.nc.publish(this.subject, JSON.stringify(notice));
    } catch (err) {
      // NATS away: gateways stop serving cached dashboards themselves while they cannot hear it.
      this.log.warn({ err, cause: notice.cause }, 'could not send the dashboard notice');
    }
  }
}

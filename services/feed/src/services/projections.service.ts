import type {
  ClipperProfileChangedV1,
  RewardsStandingChangedV1,
  RewardsStreamerMultiplierChangedV1,
  SocialFollowedV1,
  SocialLikedV1,
  SubmissionSnapshot,
  TokenSnapshot,
  UserSnapshot,
} from '@clipit/contracts';
import type { HandlerTable } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectionStore } from '../repositories/projection.store.js';
import { LIVE_SCHEMA } from '../repositories/read-model-schema.js';

/**
 * What each consumed event does to the read models, applied in the transaction of its inbox row (the
 * live models) or of a replay's batch (a fresh copy): one table of handlers for both, so a replay gives
 * the same answers as the live consumer by construction.
 */
export class Projections {
  constructor(private readonly store: ProjectionStore) {}

  /** The same handlers writing into another schema (a replay's). */
  static forSchema(schema: string): Projections {
    return new Projections(new ProjectionStore(schema));
  }

  onUser(data: { user: UserSnapshot }, tx: EntityManager): Promise<void> {
    return this.store.applyUser(tx, data.user);
  }

  onToken(data: { token: TokenSnapshot }, tx: EntityManager): Promise<void> {
    return this.store.applyToken(tx, data.token);
  }

  onSubmission(data: { submission: SubmissionSnapshot }, tx: EntityManager): Promise<void> {
    return this.store.applySubmission(tx, data.submission);
  }

  onLike(data: SocialLikedV1, liked: boolean, tx: EntityManager): Promise<void> {
    return this.store.applyLike(tx, data.userId, data.clipId, liked, data.likeCount, data.at);
  }

  /** A replay's last step: every person's figures at once (its writes skip them per event). */
  finishReplay(tx: EntityManager): Promise<void> {
    return this.store.recomputeAllFigures(tx);
  }

  onFollow(data: SocialFollowedV1, tx: EntityManager): Promise<void> {
    return this.store.applyFollowerCount(tx, { id: data.userId, count: data.followerCount, at: data.at });
  }

  /** Clip points: only the standing's latest revision counts. */
  onStanding(data: RewardsStandingChangedV1, tx: EntityManager): Promise<void> {
    return this.store.applyStanding(tx, data);
  }

  /** The multiplier rewards applies to the streamer: only its latest revision counts. */
  onStreamerMultiplier(data: RewardsStreamerMultiplierChangedV1, tx: EntityManager): Promise<void> {
    return this.store.applyStreamerMultiplier(tx, data);
  }

  /** The clipper's hiring profile: only its latest revision counts. */
  onClipperProfile(data: ClipperProfileChangedV1, tx: EntityManager): Promise<void> {
    return this.store.applyClipperProfile(tx, data.profile, data.revision);
  }

  /** Every event type the read models are built from, with what it does: the consumer's table and the replay's. */
  handlers(): ProjectionHandlerTable {
    return {
      'user.registered': (e, tx) => this.onUser(e.data, tx),
      'user.updated': (e, tx) => this.onUser(e.data, tx),
      'token.changed': (e, tx) => this.onToken(e.data, tx),
      'submission.created': (e, tx) => this.onSubmission(e.data, tx),
      'submission.approved': (e, tx) => this.onSubmission(e.data, tx),
      'submission.rejected': (e, tx) => this.onSubmission(e.data, tx),
      'submission.feed-changed': (e, tx) => this.onSubmission(e.data, tx),
      'submission.video-changed': (e, tx) => this.onSubmission(e.data, tx),
      // A post's X metrics moved (or it was verified): views on clips, leaderboards and people's figures.
      'metrics.updated': (e, tx) => this.onSubmission(e.data, tx),
      'social.liked': (e, tx) => this.onLike(e.data, true, tx),
      'social.unliked': (e, tx) => this.onLike(e.data, false, tx),
      'social.followed': (e, tx) => this.onFollow(e.data, tx),
      'social.unfollowed': (e, tx) => this.onFollow(e.data, tx),
      'rewards.standing-changed': (e, tx) => this.onStanding(e.data, tx),
      'rewards.streamer-multiplier-changed': (e, tx) => this.onStreamerMultiplier(e.data, tx),
      'clipper-profile.changed': (e, tx) => this.onClipperProfile(e.data, tx),
    };
  }
}

export type ProjectedEventType =
  | 'user.registered'
  | 'user.updated'
  | 'token.changed'
  | 'submission.created'
  | 'submission.approved'
  | 'submission.rejected'
  | 'submission.feed-changed'
  | 'submission.video-changed'
  | 'metrics.updated'
  | 'social.liked'
  | 'social.unliked'
  | 'social.followed'
  | 'social.unfollowed'
  | 'rewards.standing-changed'
  | 'rewards.streamer-multiplier-changed'
  | 'clipper-profile.changed';

export type ProjectionHandlerTable = HandlerTable<ProjectedEventType>;

/** The live read models' projections, as the consumer runs them. */
@Injectable()
export class ProjectionsService extends Projections {
  constructor() {
    super(new ProjectionStore(LIVE_SCHEMA));
  }
}

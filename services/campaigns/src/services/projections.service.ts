import type { RewardsStandingChangedV1, SubmissionSnapshot, UserSnapshot } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { countsTowardCampaigns } from '../domain/campaign.js';
import { defaultServices } from '../domain/profile.js';
import { ClipRepository } from '../repositories/clip.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { CampaignProgressService } from './campaign-progress.service.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';

/**
 * What campaigns does with other services' events, each applied once in the transaction of its inbox row
 * and in any order: people and clipper profiles from identity, points tiers from rewards, clips (and the
 * running campaigns they deliver) from submissions.
 */
@Injectable()
export class ProjectionsService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly profiles: ProfileRepository,
    private readonly clips: ClipRepository,
    private readonly progress: CampaignProgressService,
    private readonly profileEvents: ClipperProfileEventsService,
  ) {}

  /** user.registered / user.updated: the person, and for a clipper their profile (made if missing). */
  async onUser(data: { user: UserSnapshot }, tx: EntityManager, now = new Date()): Promise<void> {
    const u = data.user;
    await this.people.upsertUser(tx, u);
    if (u.role !== 'clipper') return;
    if (await this.profiles.upsertFromUser(tx, u, await this.people.standingOf(tx, u.id), now)) await this.profileEvents.changed(tx, u.id);
    await this.offerPackages(tx, u.id, now);
  }

  /**
   * rewards.standing-changed: points and tier, unless a later revision is already held. A clipper reaching
   * or leaving gold changes what their clips deliver (ADR 0041): the running campaigns of the streamers
   * their approved clips are tagged with are recounted.
   */
  async onStandingChanged(data: RewardsStandingChangedV1, tx: EntityManager, now = new Date()): Promise<void> {
    const change = await this.people.applyStanding(tx, data);
    if (await this.profiles.applyStanding(tx, data, now)) await this.offerPackages(tx, data.userId, now);
    if (!change.applied || countsTowardCampaigns(change.previousTier) === countsTowardCampaigns(data.clipperTier)) return;
    for (const streamerId of await this.clips.streamersRunningWith(tx, data.userId)) await this.progress.recompute(tx, streamerId, now);
  }

  /** submission.*: the clip, the clipper's last approval, and the running campaign of each streamer it is (or was) tagged with. */
  async onSubmission(data: { submission: SubmissionSnapshot }, tx: EntityManager, now = new Date()): Promise<void> {
    const s = data.submission;
    const change = await this.clips.upsert(tx, s);
    if (!change.applied) return;
    if (s.status === 'approved') await this.profiles.noteApprovedClip(tx, s.userId, s.approvedAt ?? s.updatedAt);
    const streamers = new Set([s.streamerId, change.previousStreamerId].filter((id): id is string => !!id));
    for (const streamerId of streamers) await this.progress.recompute(tx, streamerId, now);
  }

  /** A clipper who has just reached gold and lists no services gets the three packages (ADR 0027). */
  private async offerPackages(tx: EntityManager, userId: string, now: Date): Promise<void> {
    if (await this.profiles.markFirstGold(tx, userId, now)) await this.profiles.replaceServices(tx, userId, defaultServices(), now);
  }
}

import type { campaignsV1 } from '@clipit/contracts';
import { checkClipperProfile, CLIPPER_PROFILE_MESSAGES, firstClipperProfileError, type ClipperProfileEdit } from '@clipit/field-rules';
import { invalid, isUuid, notFound, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { MESSAGES } from '../domain/messages.js';
import { toProfileMessage } from '../domain/profile.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';

/** The proto's update as the rules' edit: absent fields and unsent lists stay as they are. */
export function editOf(request: campaignsV1.UpdateClipperProfileRequest): ClipperProfileEdit {
  return {
    ...(request.bio !== undefined ? { bio: request.bio } : {}),
    ...(request.setPortfolioUrls ? { portfolioUrls: request.portfolioUrls ?? [] } : {}),
    ...(request.setSpecialties ? { specialties: request.specialties ?? [] } : {}),
    ...(request.setSocialLinks ? { socialLinks: request.socialLinks ?? [] } : {}),
    ...(request.yearsExperience !== undefined ? { yearsExperience: request.yearsExperience } : {}),
    ...(request.hourlyRate !== undefined ? { hourlyRate: request.hourlyRate } : {}),
    ...(request.isAvailable !== undefined ? { isAvailable: request.isAvailable } : {}),
    ...(request.setServices ? { services: request.services ?? [] } : {}),
  };
}

/** Clipper profiles (spec 02 §3): anyone reads one; the owner edits theirs. Profiles are made from identity's events. */
@Injectable()
export class ClipperProfilesService {
  constructor(
    private readonly repo: ProfileRepository,
    private readonly transactions: TransactionRunner,
    private readonly profileEvents: ClipperProfileEventsService,
  ) {}

  async get(request: campaignsV1.GetClipperProfileRequest): Promise<campaignsV1.ClipperProfile> {
    if (!isUuid(request.userId)) throw invalid(MESSAGES.invalidClipperId);
    const profile = await this.repo.find(request.userId);
    if (!profile) throw notFound(CLIPPER_PROFILE_MESSAGES.notFound);
    return toProfileMessage(profile, await this.repo.services(profile.userId));
  }

  /** Checks the edit with the shared rules (INVALID_ARGUMENT with the first message) and stores it in one transaction. */
  async update(request: campaignsV1.UpdateClipperProfileRequest, now = new Date()): Promise<campaignsV1.ClipperProfile> {
    if (!isUuid(request.userId)) throw invalid(MESSAGES.invalidClipperId);
    const checked = checkClipperProfile(editOf(request));
    if (!checked.ok) throw invalid(firstClipperProfileError(checked.errors) ?? 'Invalid profile');
    const draft = checked.value;
    return this.transactions.run(async (tx) => {
      if (!(await this.repo.lock(tx, request.userId))) throw notFound(CLIPPER_PROFILE_MESSAGES.notFound);
      await this.repo.update(tx, request.userId, draft, now);
      if (draft.services !== undefined) await this.repo.replaceServices(tx, request.userId, draft.services, now);
      await this.profileEvents.changed(tx, request.userId);
      const profile = (await this.repo.find(request.userId, tx))!;
      return toProfileMessage(profile, await this.repo.services(request.userId, tx));
    });
  }
}

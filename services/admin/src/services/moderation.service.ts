import type { adminV1, identityV1, submissionsV1 } from '@clipit/contracts';
import { invalid, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { IDENTITY_CLIENT, SUBMISSIONS_CLIENT, type IdentityClient, type SubmissionsClient } from '../clients.js';
import { isModerationAction, toAdminSubmission, type ModerationAction } from '../domain/admin-views.js';
import { messages } from '../domain/messages.js';
import { auditResultOf, ownerFailure } from './owner-failure.js';
import { AuditService } from './audit.service.js';
import { EarningHoldsService } from './earning-holds.service.js';

/** The Post Submissions tab (spec 02 §2.4, §4): the list, with the clippers' names, and the moderation commands. */
@Injectable()
export class ModerationService {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    private readonly audit: AuditService,
    private readonly holds: EarningHoldsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** A page of the moderation queue; the filter goes to submissions as it is (the owner checks it). */
  async list(request: Omit<adminV1.ListSubmissionsRequest, 'caller'>): Promise<adminV1.SubmissionPage> {
    let page: submissionsV1.ListSubmissionsResponse;
    try {
      page = await this.submissions.listSubmissions({
        limit: request.limit,
        cursor: request.cursor,
        status: request.status,
        platform: request.platform,
        flags: request.flags ?? [],
      });
    } catch (err) {
      throw ownerFailure('submissions', err);
    }
    const submissions = page.submissions ?? [];
    // The submitters and the clippers of the earlier clips their videos match, in one call.
    // The holds on their earnings (ADR 0050), one call to rewards beside it.
    const [clippers, holds] = await Promise.all([
      this.clippers(submissions.flatMap((s) => [s.userId, ...(s.matches ?? []).map((m) => m.userId)])),
      this.holds.holdsOf(submissions.map((s) => s.id)),
    ]);
    return {
      submissions: submissions.map((s) => toAdminSubmission(s, clippers, holds.get(s.id))),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      total: Number(page.total ?? 0),
      createdPastWeek: Number(page.createdPastWeek ?? 0),
    };
  }

  async moderate(request: adminV1.ModerateRequest, actor: string): Promise<adminV1.AdminSubmission> {
    const action = request.action;
    if (!isModerationAction(action)) throw invalid(messages.unknownAction(action));
    const clientIp = request.caller?.clientIp;
    let updated: submissionsV1.Submission;
    try {
      updated = await this.command(action, request.submissionId, request.reason);
    } catch (err) {
      const failure = ownerFailure('submissions', err);
      await this.audit.record({ action, target: `submission ${request.submissionId}`, ...auditResultOf(failure), actor, clientIp });
      throw failure;
    }
    const detail = action === 'reject' && updated.rejectedReason ? `reason: ${updated.rejectedReason}` : null;
    await this.audit.record({ action, target: `submission ${updated.id}`, result: 'ok', detail, actor, clientIp });
    const [clippers, holds] = await Promise.all([
      this.clippers([updated.userId, ...(updated.matches ?? []).map((m) => m.userId)]),
      this.holds.holdsOf([updated.id]),
    ]);
    return toAdminSubmission(updated, clippers, holds.get(updated.id));
  }

  private command(action: ModerationAction, submissionId: string, reason: string | undefined): Promise<submissionsV1.Submission> {
    switch (action) {
      case 'approve':
        return this.submissions.approve({ submissionId });
      case 'approve-and-add-to-feed':
        return this.submissions.approveAndAddToFeed({ submissionId });
      case 'reject':
        return this.submissions.reject({ submissionId, ...(reason !== undefined ? { reason } : {}) });
      case 'add-to-feed':
        return this.submissions.addToFeed({ submissionId });
      case 'remove-from-feed':
        return this.submissions.removeFromFeed({ submissionId });
    }
  }

  /**
   * The submitting accounts, by id. The list is still worth showing without them, so identity away
   * leaves the names out (logged) rather than failing the page.
   */
  private async clippers(userIds: readonly string[]): Promise<Map<string, identityV1.User>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    try {
      const { users } = await this.identity.getUsers({ ids });
      return new Map((users ?? []).map((u) => [u.id, u]));
    } catch (err) {
      this.log.warn({ err }, 'identity did not name the clippers; the admin list goes out without their handles');
      return new Map();
    }
  }
}

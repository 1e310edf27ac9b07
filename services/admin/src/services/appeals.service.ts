import type { adminV1, identityV1, submissionsV1 } from '@clipit/contracts';
import { APPEAL_MESSAGES, checkAppealDecisionReason, isAppealOutcome } from '@clipit/field-rules';
import { invalid, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { IDENTITY_CLIENT, SUBMISSIONS_CLIENT, type IdentityClient, type SubmissionsClient } from '../clients.js';
import { AuditService } from './audit.service.js';
import { auditResultOf, ownerFailure } from './owner-failure.js';

/**
 * The Appeals tab (ADR 0051): clippers' appeals of rejections and held earnings, owned by submissions,
 * with the clippers' handles; and the admin's decision, carried to submissions with the admin token's id
 * and audited with its result like every admin command.
 */
@Injectable()
export class AppealsService {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    private readonly audit: AuditService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async list(request: { limit?: number | undefined; cursor?: string | undefined }): Promise<adminV1.AppealPage> {
    let page: submissionsV1.AppealPage;
    try {
      page = await this.submissions.listAppeals({ limit: request.limit, cursor: request.cursor });
    } catch (err) {
      throw ownerFailure('submissions', err);
    }
    const appeals = page.appeals ?? [];
    const clippers = await this.clippers(appeals.map((a) => a.userId));
    return { appeals: appeals.map((a) => toAdminAppeal(a, clippers)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  async decide(request: adminV1.DecideAppealRequest, actor: string): Promise<adminV1.AdminAppeal> {
    const clientIp = request.caller?.clientIp;
    const action = isAppealOutcome(request.outcome) ? `appeal-${request.outcome}` : 'decide-appeal';
    const target = `appeal ${request.appealId}`;
    let decided: submissionsV1.Appeal;
    try {
      // Checked before the call so a refusal names the field; submissions checks the same rules again.
      if (!isAppealOutcome(request.outcome)) throw invalid(APPEAL_MESSAGES.badOutcome);
      const checked = checkAppealDecisionReason(request.reason);
      if (checked.error !== undefined) throw invalid(checked.error);
      decided = await this.submissions.decideAppeal({
        appealId: request.appealId,
        outcome: request.outcome,
        reason: checked.reason,
        decidedBy: actor,
      });
    } catch (err) {
      const failure = ownerFailure('submissions', err);
      await this.audit.record({ action, target, ...auditResultOf(failure), actor, clientIp });
      throw failure;
    }
    await this.audit.record({
      action,
      target: `${target} (submission ${decided.submissionId}, ${decided.kind})`,
      result: 'ok',
      detail: decided.decisionReason ? `reason: ${decided.decisionReason}` : null,
      actor,
      clientIp,
    });
    return toAdminAppeal(decided, await this.clippers([decided.userId]));
  }

  /** The clippers' accounts; identity away leaves the handles out (logged) rather than failing the page. */
  private async clippers(userIds: readonly string[]): Promise<Map<string, identityV1.User>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    try {
      const { users } = await this.identity.getUsers({ ids });
      return new Map((users ?? []).map((u) => [u.id, u]));
    } catch (err) {
      this.log.warn({ err }, 'identity did not name the clippers; the appeals go out without their handles');
      return new Map();
    }
  }
}

export function toAdminAppeal(a: submissionsV1.Appeal, clippers: ReadonlyMap<string, identityV1.User>): adminV1.AdminAppeal {
  const handle = clippers.get(a.userId)?.twitterUsername;
  return { ...a, holdReasons: a.holdReasons ?? [], ...(handle ? { clipperHandle: handle } : {}) };
}

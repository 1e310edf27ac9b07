import type { adminV1, rewardsV1 } from '@clipit/contracts';
import { invalid, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { REWARDS_CLIENT, type RewardsClient } from '../clients.js';
import { isHoldDecision, toAdminHold } from '../domain/admin-views.js';
import { messages } from '../domain/messages.js';
import { AuditService } from './audit.service.js';
import { auditResultOf, ownerFailure } from './owner-failure.js';

/**
 * The holds on earnings of flagged clips (ADR 0050), kept by rewards: read for a page of the submissions
 * list in one call, and an admin's release or void carried to rewards with the reason, audited.
 */
@Injectable()
export class EarningHoldsService {
  constructor(
    @Inject(REWARDS_CLIENT) private readonly rewards: RewardsClient,
    private readonly audit: AuditService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /**
   * The holds of these submissions' earnings, by submission id. The list is still worth showing without
   * them, so rewards away leaves them out (logged) rather than failing the page.
   */
  async holdsOf(submissionIds: readonly string[]): Promise<Map<string, adminV1.EarningHold>> {
    if (submissionIds.length === 0) return new Map();
    try {
      const { holds } = await this.rewards.listHolds({ submissionIds: [...submissionIds] });
      return new Map((holds ?? []).map((h) => [h.submissionId, toAdminHold(h)]));
    } catch (err) {
      this.log.warn({ err }, 'rewards did not give the holds; the admin list goes out without them');
      return new Map();
    }
  }

  async decide(request: adminV1.DecideEarningHoldRequest, actor: string): Promise<adminV1.EarningHold> {
    const decision = request.decision;
    if (!isHoldDecision(decision)) throw invalid(messages.unknownHoldDecision(decision));
    // rewards, the owner, checks the reason (required, at most 500 characters): its refusal is audited as one.
    const reason = request.reason.trim();
    const action = `${decision}-earning`;
    const target = `earning ${request.earningId}`;
    const clientIp = request.caller?.clientIp;
    const command = { earningId: request.earningId, reason, actor };
    let decided: rewardsV1.EarningHold;
    try {
      decided = decision === 'release' ? await this.rewards.releaseEarning(command) : await this.rewards.voidEarning(command);
    } catch (err) {
      const failure = ownerFailure('rewards', err);
      await this.audit.record({ action, target, ...auditResultOf(failure), actor, clientIp });
      throw failure;
    }
    await this.audit.record({ action, target, result: 'ok', detail: `reason: ${reason}`, actor, clientIp });
    return toAdminHold(decided);
  }
}

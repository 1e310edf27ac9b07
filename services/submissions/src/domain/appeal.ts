import type { AppealSnapshot, submissionsV1 } from '@clipit/contracts';
import {
  APPEAL_MESSAGES,
  checkAppealDecisionReason,
  checkAppealText,
  isAppealOutcome,
  type AppealKind,
  type AppealOutcome,
} from '@clipit/field-rules';
import { conflict, failedPrecondition, invalid, notFound } from '@clipit/service-kit';
import type { AppealEntity } from '../entities/appeal.entity.js';
import type { EarningHoldState, SubmissionEntity } from '../entities/submission.entity.js';

/**
 * The rules of appeals (ADR 0051), pure. A clipper appeals their own clip once per kind: a rejection
 * while it is rejected, a hold while its earning is held (as rewards' events last told it).
 */

type Appealable = Pick<SubmissionEntity, 'userId' | 'status' | 'earningHold'>;

/** What the clip's state lets its owner appeal, or null when nothing. */
export function appealableKind(submission: Pick<SubmissionEntity, 'status' | 'earningHold'>): AppealKind | null {
  if (submission.status === 'rejected') return 'rejection';
  if (submission.status === 'approved' && submission.earningHold === 'held') return 'hold';
  return null;
}

/**
 * The kind a new appeal of `submission` by `userId` is, or the refusal: another's clip (or none) is not
 * found, so others cannot tell it exists; a kind appealed before is a conflict; a clip with nothing to
 * appeal is invalid (a conflict when it was appealed already: the decision made it so).
 */
export function kindToAppeal(submission: Appealable | undefined, userId: string, appealedKinds: readonly AppealKind[]): AppealKind {
  if (!submission || submission.userId !== userId) throw notFound(APPEAL_MESSAGES.submissionNotFound);
  const kind = appealableKind(submission);
  if (kind === null) {
    if (appealedKinds.length > 0) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
    throw invalid(APPEAL_MESSAGES.notAppealable);
  }
  if (appealedKinds.includes(kind)) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
  return kind;
}

/** The stored text: trimmed, required, at most 1,000 characters (INVALID_ARGUMENT naming the limit). */
export function appealText(raw: string): string {
  const checked = checkAppealText(raw);
  if (checked.error !== undefined) throw invalid(checked.error);
  return checked.text;
}

export interface AppealDecisionInput {
  outcome: AppealOutcome;
  reason: string;
  by: string;
}

/** The decision's fields checked before anything is read: a known outcome, a reason, who decided. */
export function checkDecision(outcome: string, reason: string, by: string): AppealDecisionInput {
  if (!isAppealOutcome(outcome)) throw invalid(APPEAL_MESSAGES.badOutcome);
  const checked = checkAppealDecisionReason(reason);
  if (checked.error !== undefined) throw invalid(checked.error);
  const actor = by.trim();
  if (!actor) throw invalid('The deciding admin is required');
  return { outcome, reason: checked.reason, by: actor };
}

/** A pending appeal decided; a decided one is refused (FAILED_PRECONDITION, 409). */
export function decide(appeal: AppealEntity | undefined, decision: AppealDecisionInput, now: Date): AppealEntity {
  if (!appeal) throw notFound(APPEAL_MESSAGES.appealNotFound);
  if (appeal.status !== 'pending') throw failedPrecondition(APPEAL_MESSAGES.alreadyDecided);
  return { ...appeal, status: decision.outcome, decisionReason: decision.reason, decidedBy: decision.by, decidedAt: now };
}

/** What a decided appeal changes at its owner: an overturned rejection approves the clip. */
export function approvesClip(appeal: Pick<AppealEntity, 'kind' | 'status'>): boolean {
  return appeal.kind === 'rejection' && appeal.status === 'overturned';
}

export interface EarningHoldEvent {
  state: EarningHoldState;
  earningId: string;
  reasons?: readonly string[];
  at: Date;
}

/**
 * Applies one of rewards' hold events to the submission's mirror, in the events' own order: an event
 * older than the one applied last changes nothing (a replay, a late redelivery); at the same instant a
 * decision follows a hold. Returns whether it changed anything.
 */
export function applyEarningHold(
  s: Pick<SubmissionEntity, 'earningHold' | 'earningId' | 'earningHoldReasons' | 'earningHoldAt'>,
  event: EarningHoldEvent,
): boolean {
  const last = s.earningHoldAt;
  if (last) {
    const t = event.at.getTime();
    if (t < last.getTime()) return false;
    if (t === last.getTime() && !(s.earningHold === 'held' && event.state !== 'held')) return false;
  }
  s.earningHold = event.state;
  s.earningId = event.earningId;
  if (event.state === 'held') s.earningHoldReasons = [...(event.reasons ?? [])];
  s.earningHoldAt = event.at;
  return true;
}

/** The appeal a clipper files: what was appealed is kept as it stood. */
export function newAppeal(
  id: string,
  submission: Pick<SubmissionEntity, 'id' | 'userId' | 'rejectedReason' | 'earningId' | 'earningHoldReasons'>,
  kind: AppealKind,
  text: string,
  now: Date,
): AppealEntity {
  return {
    id,
    submissionId: submission.id,
    userId: submission.userId,
    kind,
    text,
    status: 'pending',
    earningId: kind === 'hold' ? submission.earningId : null,
    rejectedReason: kind === 'rejection' ? submission.rejectedReason : null,
    holdReasons: kind === 'hold' ? (submission.earningHoldReasons ?? []) : null,
    decisionReason: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: now,
  };
}

export function toAppealSnapshot(a: AppealEntity): AppealSnapshot {
  return {
    appealId: a.id,
    submissionId: a.submissionId,
    userId: a.userId,
    kind: a.kind,
    text: a.text,
    status: a.status,
    earningId: a.earningId,
    decision:
      a.status !== 'pending' && a.decisionReason && a.decidedBy && a.decidedAt
        ? { outcome: a.status, reason: a.decisionReason, by: a.decidedBy, at: a.decidedAt.toISOString() }
        : null,
    createdAt: a.createdAt.toISOString(),
  };
}

export function toAppealMessage(a: AppealEntity, clip: Pick<SubmissionEntity, 'url' | 'name'> | undefined): submissionsV1.Appeal {
  return {
    id: a.id,
    submissionId: a.submissionId,
    userId: a.userId,
    kind: a.kind,
    text: a.text,
    status: a.status,
    ...(a.earningId ? { earningId: a.earningId } : {}),
    ...(a.rejectedReason ? { rejectedReason: a.rejectedReason } : {}),
    holdReasons: a.holdReasons ?? [],
    ...(a.decisionReason ? { decisionReason: a.decisionReason } : {}),
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt ? { decidedAt: a.decidedAt.toISOString() } : {}),
    createdAt: a.createdAt.toISOString(),
    postUrl: clip?.url ?? '',
    submissionName: clip?.name ?? '',
  };
}

/** Where an admin page ended: pending first (rank 0), then oldest first, by (rank, created_at, id). */
export interface AdminAppealPosition {
  rank: 0 | 1;
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeAdminCursor(p: AdminAppealPosition): string {
  return Buffer.from(JSON.stringify([p.rank, p.createdAt.toISOString(), p.id]), 'utf8').toString('base64url');
}

/** The position an admin cursor names; INVALID_ARGUMENT 'Invalid cursor' for anything this did not write. */
export function decodeAdminCursor(cursor: string): AdminAppealPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Invalid cursor');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid('Invalid cursor');
  const [rank, iso, id] = parsed as unknown[];
  if ((rank !== 0 && rank !== 1) || typeof iso !== 'string' || typeof id !== 'string' || !UUID.test(id)) throw invalid('Invalid cursor');
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) throw invalid('Invalid cursor');
  return { rank, createdAt, id };
}

export const rankOf = (a: Pick<AppealEntity, 'status'>): 0 | 1 => (a.status === 'pending' ? 0 : 1);

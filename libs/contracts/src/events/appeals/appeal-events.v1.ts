import { APPEAL_DECISION_REASON_MAX, APPEAL_KINDS, APPEAL_OUTCOMES, APPEAL_STATUSES, APPEAL_TEXT_MAX } from '@clipit/field-rules';
import { z } from 'zod';

const at = z.iso.datetime({ offset: true });

export const appealKindSchema = z.enum(APPEAL_KINDS);
export const appealStatusSchema = z.enum(APPEAL_STATUSES);
export const appealOutcomeSchema = z.enum(APPEAL_OUTCOMES);

/** An admin's decision on an appeal: `by` is the admin token's actor, `reason` their words. */
export const appealDecisionSchema = z.object({
  outcome: appealOutcomeSchema,
  reason: z.string().min(1).max(APPEAL_DECISION_REASON_MAX),
  by: z.string().min(1),
  at,
});

/**
 * A clipper's appeal of their own clip's rejection or held earning (ADR 0051), as submissions owns it.
 * `earningId` names the held earning a `hold` appeal is about (null for a rejection); `decision` is null
 * while it is pending.
 */
export const appealSnapshotSchema = z.object({
  appealId: z.uuid(),
  submissionId: z.uuid(),
  userId: z.uuid(),
  kind: appealKindSchema,
  text: z.string().min(1).max(APPEAL_TEXT_MAX),
  status: appealStatusSchema,
  earningId: z.uuid().nullable(),
  decision: appealDecisionSchema.nullable(),
  createdAt: at,
});
export type AppealSnapshot = z.infer<typeof appealSnapshotSchema>;

/** A clipper appealed (status pending). */
export const appealFiledV1 = z.object({ appeal: appealSnapshotSchema });
export type AppealFiledV1 = z.infer<typeof appealFiledV1>;

/**
 * An admin upheld or overturned an appeal. An overturned rejection approves the clip (its own
 * `submission.approved` follows in the same transaction); an overturned hold asks rewards to release the
 * held earning `earningId` with the admin's reason.
 */
export const appealDecidedV1 = z.object({ appeal: appealSnapshotSchema });
export type AppealDecidedV1 = z.infer<typeof appealDecidedV1>;

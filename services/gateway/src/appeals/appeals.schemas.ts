import type { adminV1, submissionsV1 } from '@clipit/contracts';
import { APPEAL_KINDS, APPEAL_MESSAGES, APPEAL_OUTCOMES, APPEAL_STATUSES } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// Appeals (ADR 0051). The rules (text required and at most 1,000 characters, reason at most 500) are the
// owner's, in @clipit/field-rules: these only check shapes, so the owner's words reach the person.

const loose = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .max(100_000, `${field} is too long`)
    .nullish()
    .transform((v) => v ?? '');

/** POST /api/submissions/{id}/appeal */
export const fileAppealBody = strictBody({ text: loose('text') });
export type FileAppealBody = z.infer<typeof fileAppealBody>;

/** POST /api/admin/appeals/{id}/decide */
export const decideAppealBody = strictBody({
  outcome: z.enum(APPEAL_OUTCOMES, { error: APPEAL_MESSAGES.badOutcome }),
  reason: loose('reason'),
});
export type DecideAppealBody = z.infer<typeof decideAppealBody>;

const appealFields = {
  id: z.string(),
  submissionId: z.string(),
  kind: z.enum(APPEAL_KINDS).meta({ description: 'rejection: the clip was rejected; hold: its earning is held (ADR 0050)' }),
  text: z.string().meta({ description: "The clipper's words, at most 1,000 characters" }),
  status: z.enum(APPEAL_STATUSES),
  postUrl: z.string(),
  submissionName: z.string(),
  rejectedReason: z.string().nullable().meta({ description: "The rejection's reason as it stood when appealed (kind rejection)" }),
  holdReasons: z.array(z.string()).meta({ description: "Why the earning was held, in the clipper's words (kind hold)" }),
  decisionReason: z.string().nullable().meta({ description: "The admin's reason once upheld or overturned" }),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
};

/** The clipper's own appeal. */
export const appealSchema = z.object(appealFields).meta({ id: 'Appeal' });
export type AppealJson = z.infer<typeof appealSchema>;

export const appealPageSchema = z.object({ appeals: z.array(appealSchema), nextCursor: z.string().nullable() }).meta({ id: 'AppealPage' });
export type AppealPageJson = z.infer<typeof appealPageSchema>;

/** An appeal as the admin's Appeals tab shows it: with the clipper and who decided. */
export const adminAppealSchema = z
  .object({
    ...appealFields,
    userId: z.string(),
    clipperHandle: z.string().nullable(),
    decidedBy: z.string().nullable().meta({ description: "The deciding admin token's id" }),
  })
  .meta({ id: 'AdminAppeal' });
export type AdminAppealJson = z.infer<typeof adminAppealSchema>;

export const adminAppealPageSchema = z
  .object({ appeals: z.array(adminAppealSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminAppealPage' });
export type AdminAppealPageJson = z.infer<typeof adminAppealPageSchema>;

type AppealMessage = Pick<
  submissionsV1.Appeal,
  | 'id'
  | 'submissionId'
  | 'kind'
  | 'text'
  | 'status'
  | 'postUrl'
  | 'submissionName'
  | 'rejectedReason'
  | 'holdReasons'
  | 'decisionReason'
  | 'decidedAt'
  | 'createdAt'
>;

export function toAppealJson(a: AppealMessage): AppealJson {
  return {
    id: a.id,
    submissionId: a.submissionId,
    kind: a.kind as AppealJson['kind'],
    text: a.text,
    status: a.status as AppealJson['status'],
    postUrl: a.postUrl,
    submissionName: a.submissionName,
    rejectedReason: a.rejectedReason ?? null,
    holdReasons: a.holdReasons ?? [],
    decisionReason: a.decisionReason ?? null,
    decidedAt: a.decidedAt ?? null,
    createdAt: a.createdAt,
  };
}

export function toAdminAppealJson(a: adminV1.AdminAppeal): AdminAppealJson {
  return { ...toAppealJson(a), userId: a.userId, clipperHandle: a.clipperHandle ?? null, decidedBy: a.decidedBy ?? null };
}

import type { adminV1 } from '@clipit/contracts';
import { HOLD_DECISION_MESSAGES, HOLD_DECISION_REASON_MAX } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// The hold on a flagged clip's earning as the admin sees and decides it (ADR 0050): rewards keeps it,
// admin carries the decision and audits it; the gateway only checks shapes and the reason's length.

const STATUSES = ['held', 'pending', 'paid', 'voided'] as const;

export const holdDecisionSchema = z
  .object({
    decision: z.enum(['released', 'voided']),
    reason: z.string().describe("The admin's reason (the clipper reads it with a void)"),
    by: z.string().describe('The admin token id that decided'),
    at: z.string(),
  })
  .meta({ id: 'HoldDecision' });

export const earningHoldSchema = z
  .object({
    earningId: z.string(),
    amount: z.number().describe('$CLIP'),
    status: z
      .enum(STATUSES)
      .describe('`held` until an admin decides; `pending` once released (paid by the next payout run), then `paid`; `voided`: never paid'),
    reasons: z.array(z.string()).describe('Why it was held, in the words the clipper reads'),
    heldAt: z.string(),
    decision: holdDecisionSchema.nullable(),
  })
  .meta({ id: 'EarningHold' });

/** The hold as the admin list carries it: null when the clip's earning was never held. */
export const earningHoldField = earningHoldSchema
  .nullable()
  .describe(
    "The hold on the clip's earning (ADR 0050): a clip approved while its video matches an earlier clip or its views are under review, or flagged so while its earning waited for a payout, earns nothing until an admin releases or voids it. Null when it was never held.",
  );

export type EarningHoldJson = z.infer<typeof earningHoldSchema>;

export const holdDecisionBody = strictBody({
  reason: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? HOLD_DECISION_MESSAGES.required : 'Reason must be text') })
    .trim()
    .min(1, HOLD_DECISION_MESSAGES.required)
    .max(HOLD_DECISION_REASON_MAX, HOLD_DECISION_MESSAGES.tooLong),
});
export type HoldDecisionBody = z.infer<typeof holdDecisionBody>;

/** From admin's gRPC answer. */
export function toEarningHoldJson(h: adminV1.EarningHold | undefined): EarningHoldJson | null {
  if (!h) return null;
  return {
    earningId: h.earningId,
    amount: Number(h.amount),
    status: ((STATUSES as readonly string[]).includes(h.status) ? h.status : 'held') as EarningHoldJson['status'],
    reasons: h.reasons ?? [],
    heldAt: h.heldAt,
    decision: h.decision
      ? {
          decision: h.decision.decision === 'voided' ? 'voided' : 'released',
          reason: h.decision.reason,
          by: h.decision.by,
          at: h.decision.at,
        }
      : null,
  };
}

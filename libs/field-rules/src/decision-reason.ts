// The reason an admin gives for a decision a clipper then reads: releasing or voiding a held earning
// (ADR 0050), upholding or overturning an appeal (ADR 0051). One rule for each of them, checked alike by
// the admin's dialogs, the gateway and the owning service: required, trimmed, at most 500 characters.

export const DECISION_REASON_MAX = 500;

export const DECISION_REASON_MESSAGES = {
  required: 'A reason is required',
  tooLong: `Reason must be at most ${DECISION_REASON_MAX} characters`,
} as const;

/** The reason as stored: trimmed; `error` when it is blank or too long. */
export function checkDecisionReason(raw: string | null | undefined): { reason: string; error?: undefined } | { error: string } {
  const reason = (raw ?? '').trim();
  if (!reason) return { error: DECISION_REASON_MESSAGES.required };
  if (reason.length > DECISION_REASON_MAX) return { error: DECISION_REASON_MESSAGES.tooLong };
  return { reason };
}

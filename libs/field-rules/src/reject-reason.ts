// The reason an admin may give when rejecting a submission (spec 02 §3 rejectedReason; ADR 0020): the
// admin's dialog, the gateway and the submissions service check it alike.

export const REJECT_REASON_MAX = 500;

export const REJECT_REASON_MESSAGES = {
  tooLong: `Rejection reason must be at most ${REJECT_REASON_MAX} characters`,
} as const;

/** The reason as stored: trimmed, undefined when blank; `error` when it is too long. */
export function checkRejectReason(raw: string | null | undefined): { reason?: string; error?: string } {
  const reason = (raw ?? '').trim();
  if (reason.length > REJECT_REASON_MAX) return { error: REJECT_REASON_MESSAGES.tooLong };
  return reason ? { reason } : {};
}

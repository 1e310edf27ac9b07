// The reason an admin gives when releasing or voiding a held earning (ADR 0050): required, so the clipper
// and the audit log can read why. The rule of every admin decision's reason (decision-reason.ts).
import { checkDecisionReason, DECISION_REASON_MAX, DECISION_REASON_MESSAGES } from './decision-reason.js';

export const HOLD_DECISION_REASON_MAX = DECISION_REASON_MAX;
export const HOLD_DECISION_MESSAGES = DECISION_REASON_MESSAGES;
/** The reason as stored: trimmed; `error` when it is blank or too long. */
export const checkHoldDecisionReason = checkDecisionReason;

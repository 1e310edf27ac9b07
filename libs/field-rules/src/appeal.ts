// A clipper's appeal of a rejection or of a held earning (ADR 0051), and the admin's decision on it. The
// dashboard's dialog, the admin's Appeals tab, the gateway and the submissions service check them alike.

import { checkDecisionReason, DECISION_REASON_MAX, DECISION_REASON_MESSAGES } from './decision-reason.js';

export const APPEAL_TEXT_MAX = 1000;
/** The admin's decision takes the reason every admin decision takes (decision-reason.ts). */
export const APPEAL_DECISION_REASON_MAX = DECISION_REASON_MAX;

export const APPEAL_KINDS = ['rejection', 'hold'] as const;
export type AppealKind = (typeof APPEAL_KINDS)[number];

export const APPEAL_OUTCOMES = ['upheld', 'overturned'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];

export const APPEAL_STATUSES = ['pending', ...APPEAL_OUTCOMES] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

export const APPEAL_MESSAGES = {
  textRequired: 'Please say why the decision should change',
  textTooLong: `An appeal must be at most ${APPEAL_TEXT_MAX.toLocaleString('en-US')} characters`,
  notAppealable: 'Only a rejected clip or a clip whose earning is held can be appealed',
  alreadyAppealed: 'You have already appealed this decision',
  submissionNotFound: 'Submission not found',
  appealNotFound: 'Appeal not found',
  alreadyDecided: 'This appeal has already been decided',
  badOutcome: "Outcome must be 'upheld' or 'overturned'",
  reasonRequired: DECISION_REASON_MESSAGES.required,
  reasonTooLong: DECISION_REASON_MESSAGES.tooLong,
} as const;

/** The appeal's text as stored: trimmed; `error` when it is blank or longer than 1,000 characters. */
export function checkAppealText(raw: string | null | undefined): { text: string; error?: undefined } | { error: string } {
  const text = (raw ?? '').trim();
  if (!text) return { error: APPEAL_MESSAGES.textRequired };
  if (text.length > APPEAL_TEXT_MAX) return { error: APPEAL_MESSAGES.textTooLong };
  return { text };
}

export function isAppealOutcome(value: unknown): value is AppealOutcome {
  return typeof value === 'string' && (APPEAL_OUTCOMES as readonly string[]).includes(value);
}

/** The admin's reason as stored: trimmed; `error` when it is blank or longer than 500 characters. */
export const checkAppealDecisionReason = checkDecisionReason;

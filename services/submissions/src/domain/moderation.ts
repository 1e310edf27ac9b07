import type { SubmissionStatus } from '@clipit/contracts';
import { checkRejectReason as checkReason } from '@clipit/field-rules';
import { failedPrecondition, invalid } from '@clipit/service-kit';
import { messages } from './messages.js';

export type ModerationCommand = 'approve' | 'approve-and-add-to-feed' | 'reject' | 'add-to-feed' | 'remove-from-feed';

export interface ModerationState {
  status: SubmissionStatus;
  addedToFeed: boolean;
}

/**
 * The moderation transitions of spec 02 §4: pending becomes approved (optionally straight into the
 * feed) or rejected; rejected is terminal; an approved submission moves in and out of the feed and
 * stays approved. A command the state forbids is refused with a message naming the state.
 */
export function nextModerationState(current: ModerationState, command: ModerationCommand): ModerationState {
  switch (command) {
    case 'approve':
      if (current.status !== 'pending') throw failedPrecondition(messages.notPending('approved', current.status));
      return { status: 'approved', addedToFeed: false };
    case 'approve-and-add-to-feed':
      if (current.status !== 'pending') throw failedPrecondition(messages.notPending('approved', current.status));
      return { status: 'approved', addedToFeed: true };
    case 'reject':
      if (current.status !== 'pending') throw failedPrecondition(messages.notPending('rejected', current.status));
      return { status: 'rejected', addedToFeed: false };
    case 'add-to-feed':
      if (current.status !== 'approved') throw failedPrecondition(messages.notApprovedForFeed(current.status));
      if (current.addedToFeed) throw failedPrecondition(messages.alreadyInFeed);
      return { status: 'approved', addedToFeed: true };
    case 'remove-from-feed':
      if (current.status !== 'approved') throw failedPrecondition(messages.notApprovedForFeed(current.status));
      if (!current.addedToFeed) throw failedPrecondition(messages.notInFeed);
      return { status: 'approved', addedToFeed: false };
  }
}

/**
 * An appeal overturned the rejection (ADR 0051): the one way out of rejected, into approved (not into the
 * feed; a moderator adds it as for any approval). Refused for a clip that is not rejected.
 */
export function overturnRejection(current: ModerationState): ModerationState {
  if (current.status !== 'rejected') throw failedPrecondition(messages.notRejected(current.status));
  return { status: 'approved', addedToFeed: false };
}

/** The stored rejection reason (field-rules' rule): trimmed, null when blank, at most 500 characters. */
export function checkRejectReason(raw: string | undefined): string | null {
  const { reason, error } = checkReason(raw);
  if (error) throw invalid(error);
  return reason ?? null;
}

import type { AdminSubmission } from '@clipit/web-api';

/** The platform of a post as the list names it (spec 02 §2.4), from the gateway's `platform` field. */
export function platformLabel(platform: AdminSubmission['platform']): string {
  switch (platform) {
    case 'twitter':
      return 'Twitter/X';
    case 'instagram':
      return 'Instagram';
    case 'tiktok':
      return 'TikTok';
    case 'other':
      return 'Other Platform';
  }
}

/** The moderation commands (ADR 0020), each a POST /api/admin/submissions/{id}/<action>. */
export type ModerationAction = 'approve' | 'approve-and-add-to-feed' | 'reject' | 'add-to-feed' | 'remove-from-feed';

/** The words of each command: its button, its success toast, and its failure toast (spec 02 §8). */
export const ACTIONS: Record<ModerationAction, { label: string; success: string; failureTitle: string; failure: string }> = {
  approve: { label: 'Approve', success: 'Submission Approved', failureTitle: 'Failed to approve', failure: 'Failed to approve submission' },
  'approve-and-add-to-feed': {
    label: 'Approve & Add to Feed',
    success: 'Submission Approved and Added to Feed',
    failureTitle: 'Failed to approve',
    failure: 'Failed to approve and add submission to feed',
  },
  reject: { label: 'Reject', success: 'Submission Rejected', failureTitle: 'Failed to reject', failure: 'Failed to reject submission' },
  'add-to-feed': {
    label: 'Add to Feed',
    success: 'Added to Feed',
    failureTitle: 'Failed to add to feed',
    failure: 'Failed to add submission to feed',
  },
  'remove-from-feed': {
    label: 'Remove from Feed',
    success: 'Removed from Feed',
    failureTitle: 'Failed to remove from feed',
    failure: 'Failed to remove submission from feed',
  },
};

/**
 * What may happen to a submission now (spec 02 §4, enforced again by the submissions service):
 * pending → approve, approve and add, reject; approved and hidden → add to feed; approved and in the
 * feed → remove from feed; rejected → nothing.
 */
export function actionsFor(submission: Pick<AdminSubmission, 'status' | 'addedToFeed'>): ModerationAction[] {
  switch (submission.status) {
    case 'pending':
      return ['approve', 'approve-and-add-to-feed', 'reject'];
    case 'approved':
      return submission.addedToFeed === 'true' ? ['remove-from-feed'] : ['add-to-feed'];
    case 'rejected':
      return [];
  }
}

export const STATUS_LABEL: Record<AdminSubmission['status'], string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };

import { z } from 'zod';
import { submissionSnapshotSchema } from './submission-snapshot.js';

/** A clipper submitted a post (status pending). */
export const submissionCreatedV1 = z.object({ submission: submissionSnapshotSchema });
export type SubmissionCreatedV1 = z.infer<typeof submissionCreatedV1>;

/** A moderator approved a pending submission; `submission.addedToFeed` says whether it went to the feed at once. */
export const submissionApprovedV1 = z.object({ submission: submissionSnapshotSchema });
export type SubmissionApprovedV1 = z.infer<typeof submissionApprovedV1>;

/** A moderator rejected a pending submission (terminal); `submission.rejectedReason` holds the reason. */
export const submissionRejectedV1 = z.object({ submission: submissionSnapshotSchema });
export type SubmissionRejectedV1 = z.infer<typeof submissionRejectedV1>;

/** An approved submission was added to or removed from the feed (it stays approved either way). */
export const submissionFeedChangedV1 = z.object({ submission: submissionSnapshotSchema, addedToFeed: z.boolean() });
export type SubmissionFeedChangedV1 = z.infer<typeof submissionFeedChangedV1>;

/**
 * A submission's video changed state (`submission.videoState`): uploaded and processing, processed and
 * playable, or rejected, with `reason` saying why in the words the clipper is shown.
 */
export const submissionVideoChangedV1 = z.object({
  submission: submissionSnapshotSchema,
  reason: z.string().nullable(),
});
export type SubmissionVideoChangedV1 = z.infer<typeof submissionVideoChangedV1>;

/**
 * The earlier clips a submission's video re-uploads were looked up and stored (ADR 0048): the submission
 * as it now stands, with its `hold` (ADR 0050) from the matches, and how many were found.
 */
export const submissionMatchesChangedV1 = z.object({
  submission: submissionSnapshotSchema,
  matchCount: z.number().int().nonnegative(),
});
export type SubmissionMatchesChangedV1 = z.infer<typeof submissionMatchesChangedV1>;

import { z } from 'zod';

/**
 * A user as identity events carry it (`user.registered`, `user.updated`), so consumers keep read models
 * without asking back. It is the event boundary's user shape, named like `SubmissionSnapshot`; the
 * browser's shape is the gateway's `CurrentUser`, which has the email and none of the claim fields.
 */
export const userSnapshotSchema = z.object({
  id: z.uuid(),
  twitterUsername: z.string().nullable(),
  displayName: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  bannerImageUrl: z.string().nullable(),
  walletAddress: z.string().nullable(),
  /**
   * When an existing wallet was last replaced (ADR 0032); payouts to it wait 72 hours from then. Null when
   * it never was; absent in events written before it existed.
   */
  walletChangedAt: z.string().nullable().optional(),
  role: z.enum(['user', 'clipper', 'streamer', 'admin']),
  currentTier: z.number().int().min(1).max(4),
  isLive: z.enum(['true', 'false']),
  nextStreamTime: z.string().nullable(),
  streamerMultiplier: z.string().regex(/^\d\.\d{2}$/),
  isPlaceholder: z.enum(['true', 'false']),
  claimedBy: z.uuid().nullable(),
  claimedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type UserSnapshot = z.infer<typeof userSnapshotSchema>;

import { z } from 'zod';
import { userSnapshotSchema } from './user-snapshot.js';

/** A new account exists: a person signed up, or an admin created a placeholder streamer profile. */
export const userRegisteredV1 = z.object({
  user: userSnapshotSchema,
  /** Set when the sign-up claimed a placeholder streamer profile with a claim code. */
  claimedPlaceholderId: z.uuid().nullable(),
});

export type UserRegisteredV1 = z.infer<typeof userRegisteredV1>;

import { z } from 'zod';
import { userSnapshotSchema } from './user-snapshot.js';

/** A user's public data changed; carries the whole new snapshot and the names of the fields that changed. */
export const userUpdatedV1 = z.object({
  user: userSnapshotSchema,
  changed: z.array(z.string()).min(1),
});

export type UserUpdatedV1 = z.infer<typeof userUpdatedV1>;

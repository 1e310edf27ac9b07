import { z } from 'zod';

/** A streamer's token as identity events carry it: what clips are tagged with and the feed shows. */
export const tokenSnapshotSchema = z.object({
  id: z.uuid(),
  streamerId: z.uuid(),
  name: z.string(),
  pumpFunLink: z.string().nullable(),
  description: z.string().nullable(),
  isActive: z.enum(['true', 'false']),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TokenSnapshot = z.infer<typeof tokenSnapshotSchema>;

/** A token was created or changed; carries the whole new snapshot (a newer `updatedAt` wins). */
export const tokenChangedV1 = z.object({ token: tokenSnapshotSchema });
export type TokenChangedV1 = z.infer<typeof tokenChangedV1>;

import { z } from 'zod';

/**
 * An account was linked to an X account (signed up with X, or a password account linked X once):
 * `xUserId` is X's stable user id, `xUsername` the handle X gave at the time. Submissions uses it to
 * count a post whose author is the submitter's linked X account as verified.
 */
export const userXLinkedV1 = z.object({
  userId: z.uuid(),
  xUserId: z.string().regex(/^\d{1,19}$/),
  xUsername: z.string(),
  linkedAt: z.iso.datetime({ offset: true }),
});
export type UserXLinkedV1 = z.infer<typeof userXLinkedV1>;

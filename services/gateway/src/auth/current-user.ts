import type { identityV1 } from '@clipit/contracts';
import { z } from 'zod';

/**
 * The signed-in user as the browser sees it (GET /api/user/me, /api/auth/user, auth answers); its id
 * names the OpenAPI component the web apps' `CurrentUser` type is generated from.
 */
export const currentUserSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    emailVerified: z
      .boolean()
      .describe('Whether the email address was confirmed by its link (a password reset is mailed only to a confirmed one)'),
    displayName: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    twitterUsername: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    bannerImageUrl: z.string().nullable(),
    walletAddress: z.string().nullable(),
    role: z.string().describe('user, clipper, streamer or admin'),
    currentTier: z.number().int().describe('1 Bronze, 2 Silver, 3 Gold, 4 Diamond'),
    nextStreamTime: z.string().nullable().describe('ISO 8601'),
    isLive: z.enum(['true', 'false']).describe("'true' or 'false', as the product's contract reads it"),
    streamerMultiplier: z.string().describe('decimal as text, e.g. "1.00"'),
    createdAt: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The identity user as the browser sees it: no claim codes, placeholder flags or internals. */
// proto3 optional fields arrive as undefined or null when unset, depending on the loader's settings.
const orNull = (v: string | null | undefined): string | null => (v === undefined || v === null ? null : v);

export function toCurrentUser(user: identityV1.User): CurrentUser {
  return {
    id: user.id,
    email: orNull(user.email),
    emailVerified: Boolean(user.emailVerifiedAt),
    displayName: orNull(user.displayName),
    firstName: orNull(user.firstName),
    lastName: orNull(user.lastName),
    twitterUsername: orNull(user.twitterUsername),
    profileImageUrl: orNull(user.profileImageUrl),
    bannerImageUrl: orNull(user.bannerImageUrl),
    walletAddress: orNull(user.walletAddress),
    role: user.role,
    currentTier: user.currentTier,
    nextStreamTime: orNull(user.nextStreamTime),
    isLive: user.isLive === 'true' ? 'true' : 'false',
    streamerMultiplier: user.streamerMultiplier,
    createdAt: user.createdAt,
  };
}

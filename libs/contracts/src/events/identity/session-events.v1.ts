import { z } from 'zod';

/**
 * The key identity stores a session under: the SHA-256 (base64url) of the cookie's id. Events carry
 * only this, never the id itself, so what travels on the bus cannot be replayed as a cookie.
 */
const sessionKey = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/**
 * One session ended before its time (a logout). Gateways forget what they cached for it (ADR 0004);
 * a session that simply expires says nothing (every cache already stops at the session's expiry).
 */
export const sessionEndedV1 = z.object({
  userId: z.uuid(),
  sessionKey,
  reason: z.enum(['logout']),
});

/**
 * Sessions of an account ended at once, `endedSessions` of them: all of them (a password reset), or all but
 * the one that asked ('signed-out-elsewhere', from the Profile tab).
 */
export const userSessionsEndedV1 = z.object({
  userId: z.uuid(),
  reason: z.enum(['password-reset', 'signed-out-elsewhere']),
  endedSessions: z.number().int().min(0),
});

export type SessionEndedV1 = z.infer<typeof sessionEndedV1>;
export type UserSessionsEndedV1 = z.infer<typeof userSessionsEndedV1>;

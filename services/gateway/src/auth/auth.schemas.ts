import { z } from 'zod';
import { email, HANDLE_REQUIRED, newPassword, newTwitterHandle, optionalText, PASSWORD_MAX, PASSWORD_TOO_LONG, strictBody, twitterHandle, wallet } from '../http/fields.js';
import { currentUserSchema } from '../users/users.schemas.js';

export const ROLE_REQUIRED = 'Please select a role';
export const URL_INVALID = 'Please enter a valid URL';
export const PASSWORD_REQUIRED = 'Password is required';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** POST /api/auth/signup, as JSON or as the text fields of a multipart form. */
export const signupBody = strictBody({
  email: email(),
  displayName: optionalText('Display name', 100, 'Display name must be at most 100 characters'),
  twitterHandle: newTwitterHandle(),
  walletAddress: wallet('Solana wallet address is required'),
  role: z.enum(['clipper', 'streamer'], { error: ROLE_REQUIRED }),
  tokenLink: z
    .string({ error: URL_INVALID })
    .trim()
    .max(2048, URL_INVALID)
    .refine((v) => v === '' || isHttpUrl(v), URL_INVALID)
    .transform((v) => (v === '' ? undefined : v))
    .nullish()
    .transform((v) => v ?? undefined),
  claimCode: optionalText('Claim code', 64, 'Invalid claim code').transform((v) => v?.toUpperCase()),
  password: newPassword(),
  // The form's confirmation is checked by the client; accepted here and ignored.
  confirmPassword: z.unknown().optional().describe('Ignored: the client checks the confirmation'),
}).transform(({ confirmPassword: _ignored, ...fields }) => fields);
export type SignupBody = z.output<typeof signupBody>;

/** POST /api/auth/login */
export const loginBody = strictBody({
  twitterHandle: twitterHandle(),
  password: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? PASSWORD_REQUIRED : 'Password must be text') })
    .min(1, PASSWORD_REQUIRED)
    .max(PASSWORD_MAX, PASSWORD_TOO_LONG),
});
export type LoginBody = z.output<typeof loginBody>;

/** POST /api/auth/reset-password */
export const resetPasswordBody = strictBody({
  twitterHandle: twitterHandle(),
  email: email(),
  newPassword: newPassword(),
});
export type ResetPasswordBody = z.output<typeof resetPasswordBody>;

// The answers' ids name their OpenAPI components (and so the web apps' generated types).
export const signupResponse = z.object({
  user: currentUserSchema,
  claimedProfile: z.object({ displayName: z.string() }).optional(),
}).meta({ id: 'SignupResponse' });

export const loginResponse = z.object({ user: currentUserSchema }).meta({ id: 'LoginResponse' });
export const resetPasswordResponse = z.object({ message: z.literal('Password reset successfully') }).meta({ id: 'ResetPasswordResponse' });
export const logoutResponse = z.object({ ok: z.literal(true) }).meta({ id: 'LogoutResponse' });

export { HANDLE_REQUIRED };

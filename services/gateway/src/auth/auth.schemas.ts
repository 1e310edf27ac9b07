import {
  EMAIL_VERIFICATION_MESSAGES,
  isHttpUrl,
  isLinkToken,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  RESET_LINK_MESSAGES,
  SIGN_IN_MESSAGES,
  SIGN_UP_ROLES,
  URL_MAX_LENGTH,
  WALLET_MESSAGES,
} from '@clipit/field-rules';
import { z } from 'zod';
import { email, newPassword, newTwitterHandle, optionalText, strictBody, twitterHandle, wallet } from '../http/fields.js';
import { currentUserSchema } from './current-user.js';

/** POST /api/auth/signup, as JSON or as the text fields of a multipart form. */
export const signupBody = strictBody({
  email: email(),
  displayName: optionalText('Display name', 100, 'Display name must be at most 100 characters'),
  twitterHandle: newTwitterHandle(),
  walletAddress: wallet(WALLET_MESSAGES.requiredOnSignUp),
  role: z.enum(SIGN_UP_ROLES, { error: SIGN_IN_MESSAGES.roleRequired }),
  tokenLink: z
    .string({ error: SIGN_IN_MESSAGES.urlInvalid })
    .trim()
    .max(URL_MAX_LENGTH, SIGN_IN_MESSAGES.urlInvalid)
    .refine((v) => v === '' || isHttpUrl(v), SIGN_IN_MESSAGES.urlInvalid)
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
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? PASSWORD_MESSAGES.required : 'Password must be text') })
    .min(1, PASSWORD_MESSAGES.required)
    .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong),
});
export type LoginBody = z.output<typeof loginBody>;

/** POST /api/auth/reset-password: asks for a reset; only the link mailed to the account applies it (ADR 0031). */
export const resetPasswordBody = strictBody({
  twitterHandle: twitterHandle(),
  email: email(),
  newPassword: newPassword(),
});
export type ResetPasswordBody = z.output<typeof resetPasswordBody>;

/** A link's token (the page reads it from the link's #token= and posts it). */
const linkToken = (invalid: string) =>
  z
    .string({ error: invalid })
    .refine((v) => isLinkToken(v), invalid)
    .describe('The token of the mailed link: 43 URL-safe characters');

/** POST /api/auth/reset-password/confirm */
export const confirmResetBody = strictBody({ token: linkToken(RESET_LINK_MESSAGES.invalid) });
export type ConfirmResetBody = z.output<typeof confirmResetBody>;

/** POST /api/auth/verify-email */
export const verifyEmailBody = strictBody({ token: linkToken(EMAIL_VERIFICATION_MESSAGES.invalid) });
export type VerifyEmailBody = z.output<typeof verifyEmailBody>;

// The answers' ids name their OpenAPI components (and so the web apps' generated types).
export const signupResponse = z
  .object({
    user: currentUserSchema,
    claimedProfile: z.object({ displayName: z.string() }).optional(),
  })
  .meta({ id: 'SignupResponse' });

export const loginResponse = z.object({ user: currentUserSchema }).meta({ id: 'LoginResponse' });
export const resetPasswordResponse = z.object({ message: z.literal(RESET_LINK_MESSAGES.sent) }).meta({ id: 'ResetPasswordResponse' });
export const confirmResetResponse = z.object({ message: z.literal(RESET_LINK_MESSAGES.done) }).meta({ id: 'ConfirmPasswordResetResponse' });
export const verifyEmailResponse = z
  .object({ message: z.literal(EMAIL_VERIFICATION_MESSAGES.verified) })
  .meta({ id: 'VerifyEmailResponse' });
export const sendVerificationResponse = z
  .object({ sent: z.boolean().describe('false when the address is confirmed already'), message: z.string() })
  .meta({ id: 'SendEmailVerificationResponse' });
export const logoutResponse = z.object({ ok: z.literal(true) }).meta({ id: 'LogoutResponse' });

import {
  busyText,
  EMAIL_MESSAGES,
  EMAIL_VERIFICATION_MESSAGES,
  HANDLE_MESSAGES,
  PASSWORD_MESSAGES,
  RESET_LINK_MESSAGES,
  SIGN_IN_MESSAGES,
  type HashedOperation,
} from '@clipit/field-rules';
import type { EndpointDef, ErrorDoc } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, TOO_MANY_ATTEMPTS } from '../http/messages.js';
import {
  confirmResetBody,
  confirmResetResponse,
  loginBody,
  loginResponse,
  logoutResponse,
  resetPasswordBody,
  resetPasswordResponse,
  sendVerificationResponse,
  signupBody,
  signupResponse,
  verifyEmailBody,
  verifyEmailResponse,
} from './auth.schemas.js';

const crossSite: ErrorDoc = { status: 403, description: CROSS_SITE_REFUSED };
const limited: ErrorDoc = { status: 429, description: `${TOO_MANY_ATTEMPTS} (with Retry-After, in seconds)` };
const unavailable: ErrorDoc = { status: 503, description: 'Service temporarily unavailable' };
/** Identity could not hash the password in time and refused at once (ADR 0044); the web apps try again after Retry-After. */
const hashingBusy = (operation: HashedOperation): ErrorDoc => ({
  status: 503,
  description: `'${busyText(operation, 'N')}' (with Retry-After: N, in seconds; the web apps try again after it), or 'Service temporarily unavailable'`,
});
const bodyErrors: ErrorDoc[] = [
  { status: 413, description: 'Request body is too large' },
  { status: 415, description: 'Unsupported content type' },
];

export const authRoutes = {
  signup: {
    method: 'POST',
    path: '/api/auth/signup',
    limit: 'signup',
    tag: 'auth',
    summary: 'Create an account (optionally claiming a placeholder streamer profile) and sign in',
    status: 201,
    body: signupBody,
    multipartFile: {
      field: 'profilePicture',
      description: 'Optional PNG, JPEG, GIF or WebP image, at most PROFILE_IMAGE_MAX_BYTES (5 MB)',
      mediaType: 'image/*',
    },
    response: signupResponse,
    successDescription: 'Signed up; the session cookie clipit.sid is set',
    errors: [
      {
        status: 400,
        description: `The first invalid field, e.g. '${EMAIL_MESSAGES.invalid}', '${PASSWORD_MESSAGES.tooShort}', 'Profile picture must be an image file'`,
      },
      {
        status: 409,
        description:
          "'That Twitter handle is already registered', 'An account with this email already exists', 'This claim code has already been used'",
      },
      { status: 413, description: "'Profile picture must be 5 MB or smaller' or 'Request body is too large'" },
      { status: 415, description: 'Unsupported content type' },
      crossSite,
      limited,
      hashingBusy('sign-up'),
    ],
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    limit: 'login',
    tag: 'auth',
    summary: 'Sign in with Twitter handle and password',
    body: loginBody,
    response: loginResponse,
    successDescription: 'Signed in; the session cookie clipit.sid is set',
    errors: [
      { status: 400, description: `'${HANDLE_MESSAGES.required}', '${PASSWORD_MESSAGES.required}'` },
      { status: 401, description: `'${SIGN_IN_MESSAGES.invalidCredentials}'` },
      ...bodyErrors,
      crossSite,
      limited,
      hashingBusy('log-in'),
    ],
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/reset-password',
    limit: 'reset-password',
    tag: 'auth',
    summary:
      'Ask for a password reset: when handle and email match an account with a confirmed email address, a one-time link (30 minutes) is mailed to it. Nothing changes until the link is confirmed; the answer is the same whether or not an account matched',
    body: resetPasswordBody,
    response: resetPasswordResponse,
    errors: [
      { status: 400, description: `'${HANDLE_MESSAGES.required}', '${EMAIL_MESSAGES.invalid}', '${PASSWORD_MESSAGES.tooShort}'` },
      ...bodyErrors,
      crossSite,
      limited,
      hashingBusy('reset-request'),
    ],
  },
  confirmPasswordReset: {
    method: 'POST',
    path: '/api/auth/reset-password/confirm',
    limit: 'reset-confirm',
    tag: 'auth',
    summary: 'Confirm a reset from its mailed link: sets the password it was asked with and ends every session of the account',
    body: confirmResetBody,
    response: confirmResetResponse,
    errors: [
      { status: 400, description: `'${RESET_LINK_MESSAGES.invalid}' (unknown, used or expired)` },
      ...bodyErrors,
      crossSite,
      limited,
      unavailable,
    ],
  },
  verifyEmail: {
    method: 'POST',
    path: '/api/auth/verify-email',
    limit: 'verify-email',
    tag: 'auth',
    summary: 'Confirm an email address from the link mailed to it (sign-up mails the first)',
    body: verifyEmailBody,
    response: verifyEmailResponse,
    errors: [
      { status: 400, description: `'${EMAIL_VERIFICATION_MESSAGES.invalid}' (unknown, used, expired, or the account's address changed)` },
      ...bodyErrors,
      crossSite,
      limited,
      unavailable,
    ],
  },
  sendEmailVerification: {
    method: 'POST',
    path: '/api/auth/verify-email/send',
    limit: 'verify-email-send',
    tag: 'auth',
    summary: 'Mail the signed-in user a new link that confirms their email address (none when it is confirmed already)',
    session: true,
    response: sendVerificationResponse,
    errors: [{ status: 401, description: `'${NOT_SIGNED_IN}'` }, crossSite, limited, unavailable],
  },
  logout: {
    method: 'POST',
    path: '/api/logout',
    tag: 'auth',
    summary: 'End the current session (if any) and clear the cookie',
    response: logoutResponse,
    errors: [crossSite, unavailable],
  },
  logoutLink: {
    method: 'GET',
    path: '/api/logout',
    tag: 'auth',
    summary: 'End the current session (plain link), then redirect to /',
    status: 302,
    successDescription: 'Redirect to / (Location: /)',
    successContentType: 'text/plain',
    errors: [unavailable],
  },
} satisfies Record<string, EndpointDef>;

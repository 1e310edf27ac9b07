// What the auth forms send (spec 01 §7): the confirmation is never sent; sign-up goes as JSON, or as
// multipart with the same fields plus profilePicture when a picture was chosen. The bodies are typed
// by the gateway's document (@clipit/web-api), so a field it renames or drops fails the type-check here.
import { normalizeHandle } from '@clipit/field-rules';
import type { LoginRequest, ResetPasswordRequest, SignupRequest } from '@clipit/web-api';
import type { LoginForm, ResetForm, SignupForm } from './validation.js';

/** Every field of the gateway's sign-up body but the confirmation, as the form's text (multipart sends text). */
type SignupBody = Record<Exclude<keyof SignupRequest, 'confirmPassword'>, string>;

export function signupBody(form: SignupForm): SignupBody {
  const streamer = form.role === 'streamer';
  return {
    email: form.email.trim(),
    displayName: form.displayName.trim(),
    twitterHandle: form.twitterHandle.trim(),
    walletAddress: form.walletAddress.trim(),
    role: form.role,
    // Streamer-only fields are sent empty for a clipper (the gateway reads '' as "not given").
    tokenLink: streamer ? form.tokenLink.trim() : '',
    claimCode: streamer ? form.claimCode.trim().toUpperCase() : '',
    password: form.password,
  };
}

/** The request body of POST /api/auth/signup: the JSON object, or FormData when there is a picture. */
export function signupRequestBody(form: SignupForm, picture: File | null): SignupBody | FormData {
  const body = signupBody(form);
  if (!picture) return body;
  const data = new FormData();
  for (const [key, value] of Object.entries(body)) data.append(key, value);
  data.append('profilePicture', picture);
  return data;
}

export const loginBody = (form: LoginForm): LoginRequest => ({ twitterHandle: form.twitterHandle.trim(), password: form.password });

export const resetPasswordBody = (form: ResetForm): ResetPasswordRequest => ({
  twitterHandle: form.twitterHandle.trim(),
  email: form.email.trim(),
  newPassword: form.newPassword,
});

/** The success toast's description after sign-up (spec 01 §8). */
export function signupWelcome(response: { claimedProfile?: { displayName?: string | null } | null } | undefined): string {
  const name = response?.claimedProfile?.displayName;
  return name ? `Profile claimed! Welcome, ${name}. Redirecting...` : 'Welcome to CLIP IT. Redirecting...';
}

/** The success toast's description after login: the handle the server answered, else the one typed. */
export function loginWelcome(response: { user?: { twitterUsername?: string | null } | null } | undefined, typed: string): string {
  const name = response?.user?.twitterUsername || normalizeHandle(typed);
  return `Welcome back, @${name}`;
}

// Client-side validation of the auth and wallet forms (spec 01 §5). The rules and their words are
// @clipit/field-rules', which the gateway and identity apply too: a form that fails here never
// reaches the network, and one that passes is not refused with other words.
import {
  EMAIL_MESSAGES,
  HANDLE_MESSAGES,
  isEmail,
  isHttpUrl,
  isSignUpRole,
  newPasswordProblem,
  normalizeHandle,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  SIGN_IN_MESSAGES,
  WALLET_MESSAGES,
  walletProblem,
  type SignUpRole,
} from '@clipit/field-rules';

export type Errors<K extends string> = Partial<Record<K, string>>;

export const hasErrors = (errors: Errors<string>): boolean => Object.values(errors).some(Boolean);

// The servers normalize what they read the same way (trimmed; a handle also loses one leading @).
const emailProblem = (value: string) => (isEmail(value.trim()) ? undefined : EMAIL_MESSAGES.invalid);
const handleMissing = (value: string) => normalizeHandle(value) === '';

export type Role = SignUpRole;

export interface SignupForm {
  email: string;
  displayName: string;
  twitterHandle: string;
  walletAddress: string;
  role: Role | '';
  tokenLink: string;
  claimCode: string;
  password: string;
  confirmPassword: string;
}

export const emptySignupForm: SignupForm = {
  email: '',
  displayName: '',
  twitterHandle: '',
  walletAddress: '',
  role: '',
  tokenLink: '',
  claimCode: '',
  password: '',
  confirmPassword: '',
};

export function validateSignup(form: SignupForm): Errors<keyof SignupForm> {
  const errors: Errors<keyof SignupForm> = {};
  errors.email = emailProblem(form.email);
  if (handleMissing(form.twitterHandle)) errors.twitterHandle = HANDLE_MESSAGES.required;
  errors.walletAddress = walletProblem(form.walletAddress, WALLET_MESSAGES.requiredOnSignUp);
  if (!isSignUpRole(form.role)) errors.role = SIGN_IN_MESSAGES.roleRequired;
  const tokenLink = form.tokenLink.trim();
  if (form.role === 'streamer' && tokenLink !== '' && !isHttpUrl(tokenLink)) errors.tokenLink = SIGN_IN_MESSAGES.urlInvalid;
  errors.password = newPasswordProblem(form.password);
  if (form.confirmPassword.length < PASSWORD_MIN_LENGTH) errors.confirmPassword = PASSWORD_MESSAGES.tooShort;
  else if (form.confirmPassword !== form.password) errors.confirmPassword = PASSWORD_MESSAGES.mismatch;
  return errors;
}

export interface LoginForm {
  twitterHandle: string;
  password: string;
}

export function validateLogin(form: LoginForm): Errors<keyof LoginForm> {
  const errors: Errors<keyof LoginForm> = {};
  if (handleMissing(form.twitterHandle)) errors.twitterHandle = HANDLE_MESSAGES.required;
  if (form.password === '') errors.password = PASSWORD_MESSAGES.required;
  return errors;
}

export interface ResetForm {
  twitterHandle: string;
  email: string;
  newPassword: string;
  confirmPassword: string;
}

export const emptyResetForm: ResetForm = { twitterHandle: '', email: '', newPassword: '', confirmPassword: '' };

export function validateReset(form: ResetForm): Errors<keyof ResetForm> {
  const errors: Errors<keyof ResetForm> = {};
  if (handleMissing(form.twitterHandle)) errors.twitterHandle = HANDLE_MESSAGES.required;
  errors.email = emailProblem(form.email);
  errors.newPassword = newPasswordProblem(form.newPassword);
  if (form.confirmPassword !== form.newPassword) errors.confirmPassword = PASSWORD_MESSAGES.mismatch;
  return errors;
}

/** The claim code as typed, forced to upper case (spec 01 §5). */
export const normalizeClaimCode = (value: string): string => value.toUpperCase();

/** Profile pictures: image files only. */
export function isImageFile(file: Pick<File, 'type'>): boolean {
  return file.type.startsWith('image/');
}

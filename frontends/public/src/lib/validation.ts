// Client-side validation of the auth and wallet forms (spec 01 §5), word for word with the gateway's
// own messages: a form that fails here never reaches the network.

export const MESSAGES = {
  emailInvalid: 'Please enter a valid email address',
  handleRequired: 'Twitter handle is required',
  roleRequired: 'Please select a role',
  urlInvalid: 'Please enter a valid URL',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordRequired: 'Password is required',
  passwordsDontMatch: "Passwords don't match",
  signupWalletRequired: 'Solana wallet address is required',
  connectWalletRequired: 'Wallet address is required',
  walletInvalid: 'Please enter a valid Solana wallet address',
} as const;

const PASSWORD_MIN = 8;

/** Solana addresses are base58 (no 0, O, I, l) public keys of 32 to 44 characters. */
const BASE58_WALLET = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
// The same shape the gateway's email check accepts: a local part, '@', dotted labels, a 2+ letter TLD.
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export type Errors<K extends string> = Partial<Record<K, string>>;

export const hasErrors = (errors: Errors<string>): boolean => Object.values(errors).some(Boolean);

export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && EMAIL.test(email);
}

export function isSolanaWallet(value: string): boolean {
  return BASE58_WALLET.test(value.trim());
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The wallet rule, with the "required" wording of the form it is on (sign-up or /connect). */
export function walletError(value: string, requiredMessage: string): string | undefined {
  if (value.trim() === '') return requiredMessage;
  return isSolanaWallet(value) ? undefined : MESSAGES.walletInvalid;
}

export type Role = 'clipper' | 'streamer';

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
  if (!isValidEmail(form.email)) errors.email = MESSAGES.emailInvalid;
  if (form.twitterHandle.trim() === '') errors.twitterHandle = MESSAGES.handleRequired;
  const wallet = walletError(form.walletAddress, MESSAGES.signupWalletRequired);
  if (wallet) errors.walletAddress = wallet;
  if (form.role !== 'clipper' && form.role !== 'streamer') errors.role = MESSAGES.roleRequired;
  if (form.role === 'streamer' && form.tokenLink.trim() !== '' && !isHttpUrl(form.tokenLink)) errors.tokenLink = MESSAGES.urlInvalid;
  if (form.password.length < PASSWORD_MIN) errors.password = MESSAGES.passwordTooShort;
  if (form.confirmPassword.length < PASSWORD_MIN) errors.confirmPassword = MESSAGES.passwordTooShort;
  else if (form.confirmPassword !== form.password) errors.confirmPassword = MESSAGES.passwordsDontMatch;
  return errors;
}

export interface LoginForm {
  twitterHandle: string;
  password: string;
}

export function validateLogin(form: LoginForm): Errors<keyof LoginForm> {
  const errors: Errors<keyof LoginForm> = {};
  if (form.twitterHandle.trim() === '') errors.twitterHandle = MESSAGES.handleRequired;
  if (form.password === '') errors.password = MESSAGES.passwordRequired;
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
  if (form.twitterHandle.trim() === '') errors.twitterHandle = MESSAGES.handleRequired;
  if (!isValidEmail(form.email)) errors.email = MESSAGES.emailInvalid;
  if (form.newPassword.length < PASSWORD_MIN) errors.newPassword = MESSAGES.passwordTooShort;
  if (form.confirmPassword !== form.newPassword) errors.confirmPassword = MESSAGES.passwordsDontMatch;
  return errors;
}

/** The claim code as typed, forced to upper case (spec 01 §5). */
export const normalizeClaimCode = (value: string): string => value.toUpperCase();

/** Profile pictures: image files only. */
export function isImageFile(file: Pick<File, 'type'>): boolean {
  return file.type.startsWith('image/');
}

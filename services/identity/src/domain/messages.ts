import {
  EMAIL_MESSAGES,
  EMAIL_VERIFICATION_MESSAGES,
  HANDLE_MESSAGES,
  PASSWORD_MESSAGES,
  PLACEHOLDER_MESSAGES,
  RESET_LINK_MESSAGES,
  SIGN_IN_MESSAGES,
  WALLET_CHANGE_MESSAGES,
  WALLET_MESSAGES,
  X_SIGN_IN_MESSAGES,
} from '@clipit/field-rules';

/**
 * Every text identity answers a person with. The gateway shows these as they are, so wording that
 * the product specification fixes is copied from it exactly; the texts the web apps and the gateway
 * show too are @clipit/field-rules'.
 */
export const messages = {
  emailInvalid: EMAIL_MESSAGES.invalid,
  handleRequired: HANDLE_MESSAGES.required,
  handleInvalid: HANDLE_MESSAGES.invalid,
  walletRequiredSignUp: WALLET_MESSAGES.requiredOnSignUp,
  walletRequired: WALLET_MESSAGES.required,
  walletInvalid: WALLET_MESSAGES.invalid,
  walletPasswordRequired: WALLET_CHANGE_MESSAGES.passwordRequired,
  walletPasswordIncorrect: WALLET_CHANGE_MESSAGES.passwordIncorrect,
  walletXSignInRequired: WALLET_CHANGE_MESSAGES.xSignInRequired,
  roleInvalid: SIGN_IN_MESSAGES.roleRequired,
  urlInvalid: SIGN_IN_MESSAGES.urlInvalid,
  passwordRequired: PASSWORD_MESSAGES.required,
  passwordTooShort: PASSWORD_MESSAGES.tooShort,
  passwordTooLong: PASSWORD_MESSAGES.tooLong,
  displayNameTooLong: PLACEHOLDER_MESSAGES.displayNameTooLong,
  displayNameRequired: PLACEHOLDER_MESSAGES.displayNameRequired,
  claimCodeStreamerOnly: 'Only streamers can claim a profile',
  claimCodeInvalid: 'Invalid claim code',
  claimCodeUsed: 'This claim code has already been used',
  pictureNotImage: 'Profile picture must be an image file',
  pictureTooLarge: 'Profile picture must be 5 MB or smaller',
  handleTaken: 'That Twitter handle is already registered',
  emailTaken: 'An account with this email already exists',
  badCredentials: SIGN_IN_MESSAGES.invalidCredentials,
  notSignedIn: 'Not signed in',
  resetLinkInvalid: RESET_LINK_MESSAGES.invalid,
  verificationLinkInvalid: EMAIL_VERIFICATION_MESSAGES.invalid,
  userNotFound: 'User not found',
  profileImageUrlInvalid: PLACEHOLDER_MESSAGES.profileImageUrlInvalid,
  bannerImageUrlInvalid: PLACEHOLDER_MESSAGES.bannerImageUrlInvalid,
  placeholderHandleRequired: PLACEHOLDER_MESSAGES.twitterUsernameRequired,
  multiplierInvalid: PLACEHOLDER_MESSAGES.multiplierInvalid,
  xLinkedElsewhere: X_SIGN_IN_MESSAGES.xLinkedElsewhere,
  accountLinkedToOtherX: X_SIGN_IN_MESSAGES.accountLinkedToOtherX,
  handleLinkedToOtherX: X_SIGN_IN_MESSAGES.handleLinkedToOtherX,
  xProfileInvalid: X_SIGN_IN_MESSAGES.xProfileInvalid,
} as const;

/** What identity hashes a password for (ADR 0044): each has its words when the line is full. */
export type HashedOperation = 'log-in' | 'sign-up' | 'reset-request' | 'wallet-password';

const BUSY_WHAT: Record<HashedOperation, string> = {
  'log-in': 'sign-ins',
  'sign-up': 'sign-ups',
  'reset-request': 'password resets',
  'wallet-password': 'password checks',
};

/** "Too many sign-ins right now; please try again in 3 seconds": N is the Retry-After sent with it. */
export function busyText(operation: HashedOperation, seconds: number): string {
  return `Too many ${BUSY_WHAT[operation]} right now; please try again in ${seconds} second${seconds === 1 ? '' : 's'}`;
}

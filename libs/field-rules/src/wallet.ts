// A Solana wallet address: a base58 public key (no 0, O, I or l) of 32 to 44 characters (spec 01 §5).

export const WALLET_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const WALLET_MESSAGES = {
  /** Where the wallet is added on its own: /connect and PATCH /api/user/profile. */
  required: 'Wallet address is required',
  /** On the sign-up form and POST /api/auth/signup. */
  requiredOnSignUp: 'Solana wallet address is required',
  invalid: 'Please enter a valid Solana wallet address',
} as const;

/** How long a sign-in with X counts as fresh enough to replace a wallet without a password (ADR 0032). */
export const WALLET_X_SIGN_IN_WINDOW_MINUTES = 10;
/** How long payouts to a replaced wallet wait (ADR 0032). */
export const WALLET_CHANGE_HOLD_HOURS = 72;

/** Replacing an existing wallet (ADR 0032): the refusals (403) and the Profile tab's words. */
export const WALLET_CHANGE_MESSAGES = {
  passwordRequired: 'Enter your current password to change your wallet address',
  passwordIncorrect: 'Current password is incorrect',
  xSignInRequired: `Sign in with X again to change your wallet address: a change needs a sign-in from the last ${WALLET_X_SIGN_IN_WINDOW_MINUTES} minutes`,
  /** The toast once a wallet was replaced. */
  changed: `Wallet updated. Payouts to the new wallet start ${WALLET_CHANGE_HOLD_HOURS} hours after a change.`,
} as const;

/** Whether the value, exactly as given, is a wallet address. */
export function isSolanaWallet(value: string): boolean {
  return WALLET_PATTERN.test(value);
}

/**
 * What is wrong with a wallet as typed (trimmed first), with the "required" wording of the form it is
 * on (WALLET_MESSAGES.required or .requiredOnSignUp); undefined when it is fine.
 */
export function walletProblem(raw: string | null | undefined, requiredMessage: string): string | undefined {
  const wallet = (raw ?? '').trim();
  if (wallet === '') return requiredMessage;
  return isSolanaWallet(wallet) ? undefined : WALLET_MESSAGES.invalid;
}

// A Solana wallet address: a base58 public key (no 0, O, I or l) of 32 to 44 characters (spec 01 §5).

export const WALLET_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const WALLET_MESSAGES = {
  /** Where the wallet is added on its own: /connect and PATCH /api/user/profile. */
  required: 'Wallet address is required',
  /** On the sign-up form and POST /api/auth/signup. */
  requiredOnSignUp: 'Solana wallet address is required',
  invalid: 'Please enter a valid Solana wallet address',
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

// Where a payout's transaction can be checked (ADR 0025): a Solana transfer on the chain explorer; a
// ledger record has no chain transaction, so its reference is shown as text.
import type { Payout } from './dashboard-data.js';

/** The chain explorer's transaction page: this base plus the signature. */
export const SOLANA_TX_EXPLORER = 'https://solscan.io/tx/';

/** The explorer link of a payout's transaction, or null when it was not paid on chain. */
export function payoutTransactionUrl(payout: Pick<Payout, 'driver' | 'signature'>): string | null {
  return payout.driver === 'solana' && payout.signature ? `${SOLANA_TX_EXPLORER}${encodeURIComponent(payout.signature)}` : null;
}

/** 'AbCd…WxYz': a long signature shortened for a list (the full one is in the link and its title). */
export function shortSignature(signature: string): string {
  return signature.length > 16 ? `${signature.slice(0, 8)}…${signature.slice(-8)}` : signature;
}

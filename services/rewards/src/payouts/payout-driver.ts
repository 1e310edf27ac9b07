// How a payout reaches a wallet (ADR 0025). The payout run prepares a payout (its row and the earnings it
// gathers, one transaction), asks the driver whether a transfer with the payout's reference was already
// made (a run that died after sending), sends it when not, and marks it paid with the signature.

/** One payout's transfer. */
export interface Transfer {
  /** The payout's reference key (a base58 32-byte public key, unique per payout), carried by the transfer. */
  reference: string;
  /** The clipper's wallet (a Solana address). */
  walletAddress: string;
  /** $CLIP in the token's base units (6 decimals). */
  amount: bigint;
  /** Written on the transfer (the Solana driver's memo): the payout's id. */
  memo: string;
}

export interface PayoutDriver {
  /** `ledger` or `solana`: stored on each payout. */
  readonly name: string;
  /** Whether `walletAddress` can receive at all (a payout to anything else is skipped with the reason). */
  acceptsAddress(walletAddress: string): boolean;
  /**
   * The signature of a confirmed transfer that carries `reference`, or undefined when none was made. A
   * run that finds a prepared payout asks this first, so a transfer is never made twice.
   */
  findByReference(reference: string, walletAddress: string): Promise<string | undefined>;
  /** Makes the transfer and waits until it is confirmed; its signature. */
  send(transfer: Transfer): Promise<string>;
  close?(): Promise<void>;
}

export const PAYOUT_DRIVER = Symbol('PAYOUT_DRIVER');

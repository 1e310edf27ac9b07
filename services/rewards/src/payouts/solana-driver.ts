import { setTimeout as sleep } from 'node:timers/promises';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isAddress,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type SendableTransaction,
  type Signature,
  type Transaction,
  type TransactionWithBlockhashLifetime,
} from '@solana/kit';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from '@solana-program/memo';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { PayoutDriver, Transfer } from './payout-driver.js';

// The Solana payout driver (ADR 0025): each payout is one transaction from the treasury that creates the
// clipper's $CLIP account when it has none (the treasury pays the rent), moves the amount with
// transferChecked, and carries the payout's id as a memo. The payout's reference key rides on the transfer
// instruction as an extra read-only account (the Solana Pay convention), so the chain's index of
// signatures by address finds the transfer again: a run that died after sending asks for it before
// sending a second time. The driver never talks to a network itself, only to a SolanaChain.

/** A signed payout transaction, ready to go: what a SolanaChain sends. */
export type SignedPayoutTransaction = SendableTransaction & Transaction & TransactionWithBlockhashLifetime;

/**
 * What the driver needs of a Solana cluster: an RPC node in production (`rpcChain`), an in-process VM in
 * tests. Kept this small so the driver's logic is the same against both.
 */
export interface SolanaChain {
  /** A recent blockhash for a new transaction's lifetime, and the last block height it is valid at. */
  latestBlockhash(): Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }>;
  /** Sends the transaction and resolves once it is confirmed; rejects when it failed or expired unconfirmed. */
  sendAndConfirm(transaction: SignedPayoutTransaction): Promise<void>;
  /** Signatures of the confirmed, successful transactions that load `account`, newest first. */
  signaturesFor(account: Address): Promise<Signature[]>;
}

/** What the Solana driver is built from (PAYOUT_DRIVER=solana and the SOLANA_ variables). */
export interface SolanaPayoutDriverOptions {
  chain: SolanaChain;
  /** The treasury's 64-byte keypair (secret then public key): a JSON array of numbers or base58. It pays and signs. */
  treasurySecretKey: string | Uint8Array;
  /** The $CLIP mint's address. */
  mint: string;
  /** The mint's decimals ($CLIP: 6); transferChecked refuses a transfer when they differ from the mint's. */
  decimals?: number;
  /** The memo program the payout id is written with (default: SPL Memo, `MEMO_PROGRAM`). */
  memoProgram?: string;
}

/**
 * SPL Memo (MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr), deployed on every cluster and built into LiteSVM.
 * @solana-program/memo 0.15 calls it 'legacy' and defaults to the newer p-memo ('Memo v4',
 * Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH); both take the memo as the instruction's UTF-8 data.
 */
export const MEMO_PROGRAM: Address = LEGACY_MEMO_PROGRAM_ADDRESS_V3;

/**
 * Pays $CLIP from the treasury's associated token account to each clipper's, through a SolanaChain. A
 * payout's signature is its transaction's (stored as txHash).
 */
export class SolanaPayoutDriver implements PayoutDriver {
  readonly name = 'solana';
  /** The treasury's address: the fee payer, the token owner and the only signer. */
  readonly treasuryAddress: Address;

  constructor(
    private readonly chain: SolanaChain,
    private readonly treasury: KeyPairSigner,
    private readonly mint: Address,
    private readonly decimals: number,
    private readonly memoProgram: Address = MEMO_PROGRAM,
  ) {
    this.treasuryAddress = treasury.address;
  }

  /** A base58 string that decodes to 32 bytes: anything else cannot own a token account. */
  acceptsAddress(walletAddress: string): boolean {
    return isAddress(walletAddress);
  }

  /**
   * The signature of a confirmed, successful transaction that carries `reference` (only this driver's
   * transfers do: the key is fresh per payout and no one holds it), or undefined when there is none.
   */
  async findByReference(reference: string, _walletAddress: string): Promise<string | undefined> {
    const signatures = await this.chain.signaturesFor(address(reference));
    return signatures[0];
  }

  /** Builds, signs and sends the payout's transaction and waits for its confirmation; its signature. */
  async send(transfer: Transfer): Promise<string> {
    const transaction = await this.signedTransaction(transfer);
    await this.chain.sendAndConfirm(transaction);
    return getSignatureFromTransaction(transaction);
  }

  /**
   * The payout's transaction, signed by the treasury: create the recipient's associated token account if
   * missing, transferChecked with the reference as an extra read-only account, then the memo.
   */
  async signedTransaction(transfer: Transfer): Promise<SignedPayoutTransaction> {
    if (transfer.amount <= 0n) throw new Error(`payout amount must be positive, got ${transfer.amount}`);
    const owner = address(transfer.walletAddress);
    const reference = address(transfer.reference);
    const [source] = await findAssociatedTokenPda({ owner: this.treasury.address, mint: this.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [destination] = await findAssociatedTokenPda({ owner, mint: this.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });

    const createAccount = getCreateAssociatedTokenIdempotentInstruction({ payer: this.treasury, ata: destination, owner, mint: this.mint });
    const transferChecked = getTransferCheckedInstruction({
      source,
      mint: this.mint,
      destination,
      authority: this.treasury,
      amount: transfer.amount,
      decimals: this.decimals,
    });
    // Accounts past the authority are read as multisig signers only when the authority is a multisig
    // account; the treasury is not, so the token program ignores the reference and the ledger keeps it.
    const withReference = {
      ...transferChecked,
      accounts: [...transferChecked.accounts, { address: reference, role: AccountRole.READONLY }] as const,
    };
    const memo = getAddMemoInstruction({ memo: transfer.memo }, { programAddress: this.memoProgram });

    const lifetime = await this.chain.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.treasury, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([createAccount, withReference, memo], m),
    );
    // Signed with a blockhash lifetime (set above), which is what lets a sender tell when it expired.
    const signed = await signTransactionMessageWithSigners(message);
    assertIsTransactionWithBlockhashLifetime(signed);
    return signed;
  }
}

/** The 64 bytes of a keypair written as a JSON array of numbers (solana-keygen's file) or in base58. */
export function parseSecretKey(value: string | Uint8Array): Uint8Array {
  let bytes: Uint8Array;
  if (typeof value !== 'string') {
    bytes = Uint8Array.from(value);
  } else if (value.trim().startsWith('[')) {
    // Never echo the parser's message: it would quote part of the secret.
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error('treasury secret key: not a valid JSON array');
    }
    if (!Array.isArray(parsed) || !parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) {
      throw new Error('treasury secret key: a JSON key must be an array of byte values');
    }
    bytes = Uint8Array.from(parsed as number[]);
  } else {
    try {
      bytes = Uint8Array.from(getBase58Encoder().encode(value.trim()));
    } catch {
      throw new Error('treasury secret key: neither a JSON array nor base58');
    }
  }
  if (bytes.length !== 64) throw new Error(`treasury secret key: must be 64 bytes (secret then public key), got ${bytes.length}`);
  return bytes;
}

/** The Solana driver over `chain`; rejects a malformed key, a key whose halves do not match, or a bad mint. */
export async function createSolanaPayoutDriver(options: SolanaPayoutDriverOptions): Promise<SolanaPayoutDriver> {
  if (!isAddress(options.mint)) throw new Error('solana payout driver: the mint is not a Solana address');
  if (options.memoProgram !== undefined && !isAddress(options.memoProgram))
    throw new Error('solana payout driver: the memo program is not a Solana address');
  const treasury = await createKeyPairSignerFromBytes(parseSecretKey(options.treasurySecretKey));
  return new SolanaPayoutDriver(
    options.chain,
    treasury,
    address(options.mint),
    options.decimals ?? 6,
    options.memoProgram === undefined ? MEMO_PROGRAM : address(options.memoProgram),
  );
}

/** How `rpcChain` waits for a confirmation when it has no websocket endpoint. */
export interface RpcChainOptions {
  /** Between two status polls (default 500 ms; a slot is about 400 ms). */
  pollIntervalMs?: number;
}

/**
 * A SolanaChain over a JSON-RPC node. With `wsUrl` it confirms through kit's subscription-based
 * sendAndConfirmTransactionFactory; without, it sends and polls getSignatureStatuses until the
 * transaction is confirmed, failed, or its blockhash has expired (the block height passed
 * lastValidBlockHeight). Commitment is `confirmed` throughout.
 */
export function rpcChain(rpcUrl: string, wsUrl?: string, options: RpcChainOptions = {}): SolanaChain {
  const rpc = createSolanaRpc(rpcUrl);
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const sendAndConfirmOverWebsocket = wsUrl
    ? sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: createSolanaRpcSubscriptions(wsUrl) })
    : undefined;

  return {
    async latestBlockhash() {
      const { value } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      return value;
    },

    async sendAndConfirm(transaction) {
      if (sendAndConfirmOverWebsocket) {
        await sendAndConfirmOverWebsocket(transaction, { commitment: 'confirmed' });
        return;
      }
      const signature = getSignatureFromTransaction(transaction);
      await rpc
        .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', preflightCommitment: 'confirmed' })
        .send();
      for (;;) {
        const { value } = await rpc.getSignatureStatuses([signature]).send();
        const status = value[0];
        if (status?.err) throw new Error(`transaction ${signature} failed: ${describeError(status.err)}`);
        if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
        // Not seen (or only processed): once the blockhash has expired it can never land.
        if (!status) {
          const height = await rpc.getBlockHeight({ commitment: 'confirmed' }).send();
          if (height > transaction.lifetimeConstraint.lastValidBlockHeight) {
            throw new Error(
              `transaction ${signature} expired unconfirmed (block height ${height} > ${transaction.lifetimeConstraint.lastValidBlockHeight})`,
            );
          }
        }
        await sleep(pollIntervalMs);
      }
    },

    async signaturesFor(account) {
      const found = await rpc.getSignaturesForAddress(account, { commitment: 'confirmed' }).send();
      return found.filter((entry) => entry.err === null).map((entry) => entry.signature);
    },
  };
}

/** A transaction error as text (they can hold bigints, which JSON.stringify refuses). */
function describeError(err: unknown): string {
  return JSON.stringify(err, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

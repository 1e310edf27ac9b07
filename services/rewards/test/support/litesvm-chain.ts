import { generateKeyPairSync } from 'node:crypto';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Signature,
  type TransactionMessage,
  type TransactionMessageWithFeePayer,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import type { SignedPayoutTransaction, SolanaChain } from '../../src/payouts/solana-driver.js';

// A Solana cluster inside the test process: LiteSVM (the SVM with the SPL Token, Associated Token and
// Memo programs built in) behind the same SolanaChain port an RPC node serves the driver through. LiteSVM
// keeps no index of signatures by address, so this adapter records every transaction that succeeded
// through it, with the accounts it loaded, and answers `signaturesFor` from that record, as an RPC
// node's getSignaturesForAddress does from the ledger.

/** A transaction that landed through the adapter: what a block explorer would show of it. */
export interface LandedTransaction {
  signature: Signature;
  /** The message as sent (decoded back from the wire bytes): fee payer and instructions with their accounts. */
  message: TransactionMessage & TransactionMessageWithFeePayer;
  /** Every account the transaction loads (fee payer, instruction accounts, programs). */
  accounts: ReadonlySet<Address>;
  /** The programs' log lines (the Memo program logs the memo). */
  logs: string[];
}

/** A SolanaChain over an in-process LiteSVM, with a record of what landed and a way to lose a confirmation. */
export class LiteSvmChain implements SolanaChain {
  readonly landed: LandedTransaction[] = [];
  private loseConfirmation = false;

  constructor(readonly svm: LiteSVM = new LiteSVM()) {}

  /** LiteSVM has no block height: a blockhash stays valid until `svm.expireBlockhash()`. */
  latestBlockhash(): Promise<{ blockhash: ReturnType<LiteSVM['latestBlockhash']>; lastValidBlockHeight: bigint }> {
    return Promise.resolve({ blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: this.svm.getClock().slot + 150n });
  }

  /**
   * Sends the transaction as an RPC node would receive it (its base64 wire form, decoded back). LiteSVM
   * executes it at once, so a success is final; a failure rejects with the program logs.
   */
  sendAndConfirm(transaction: SignedPayoutTransaction): Promise<void> {
    const wire = getTransactionDecoder().decode(getBase64Encoder().encode(getBase64EncodedWireTransaction(transaction)));
    const signature = getSignatureFromTransaction(transaction);
    const result = this.svm.sendTransaction(wire);
    if (result instanceof FailedTransactionMetadata) {
      return Promise.reject(new Error(`transaction ${signature} failed: ${result.toString()}\n${result.meta().logs().join('\n')}`));
    }
    const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(wire.messageBytes));
    const accounts = new Set<Address>([message.feePayer.address]);
    for (const instruction of message.instructions) {
      accounts.add(instruction.programAddress);
      for (const meta of instruction.accounts ?? []) accounts.add(meta.address);
    }
    this.landed.push({ signature, message, accounts, logs: result.logs() });
    if (this.loseConfirmation) {
      // The transaction is on chain; only its confirmation never reaches the sender (a crash, a timeout).
      this.loseConfirmation = false;
      return Promise.reject(new Error(`lost the confirmation of ${signature}`));
    }
    return Promise.resolve();
  }

  /** Newest first, successful transactions only (failed ones never reach the record), as the RPC answers. */
  signaturesFor(account: Address): Promise<Signature[]> {
    return Promise.resolve(
      this.landed
        .filter((t) => t.accounts.has(account))
        .map((t) => t.signature)
        .reverse(),
    );
  }

  /** The next send lands on chain but rejects as if the sender died before hearing it was confirmed. */
  loseNextConfirmation(): void {
    this.loseConfirmation = true;
  }

  /** The landed transaction with this signature. */
  transaction(signature: string): LandedTransaction | undefined {
    return this.landed.find((t) => t.signature === signature);
  }

  /** Gives `owner` SOL (for fees and rent) from LiteSVM's faucet. */
  airdrop(owner: Address, sol = 10n): void {
    const result = this.svm.airdrop(owner, lamports(sol * 1_000_000_000n));
    if (!result || result instanceof FailedTransactionMetadata) throw new Error(`airdrop to ${owner} failed`);
  }

  /** Signs `instructions` with `payer` (and any signer inside them) and sends them as one transaction. */
  async send(payer: KeyPairSigner, instructions: Instruction[]): Promise<Signature> {
    const { blockhash, lastValidBlockHeight } = await this.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = (await signTransactionMessageWithSigners(message)) as SignedPayoutTransaction;
    await this.sendAndConfirm(signed);
    return getSignatureFromTransaction(signed);
  }

  /** A new SPL mint with `decimals`, `authority` its mint authority (and payer): created by real instructions. */
  async createMint(authority: KeyPairSigner, decimals = 6): Promise<Address> {
    const mint = await generateKeyPairSigner();
    const space = getMintSize();
    await this.send(authority, [
      getCreateAccountInstruction({
        payer: authority,
        newAccount: mint,
        space,
        lamports: lamports(this.svm.minimumBalanceForRentExemption(BigInt(space))),
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: authority.address }),
    ]);
    return mint.address;
  }

  /** Mints `amount` base units to `owner`'s associated token account, creating it first if missing. */
  async mintTo(mint: Address, authority: KeyPairSigner, owner: Address, amount: bigint, decimals = 6): Promise<void> {
    const ata = await associatedTokenAccount(owner, mint);
    await this.send(authority, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner, mint }),
      getMintToCheckedInstruction({ mint, token: ata, mintAuthority: authority, amount, decimals }),
    ]);
  }

  /** Whether `owner` has an associated token account for `mint`. */
  async hasTokenAccount(owner: Address, mint: Address): Promise<boolean> {
    return this.svm.getAccount(await associatedTokenAccount(owner, mint)).exists;
  }

  /**
   * `owner`'s balance of `mint` in base units, read from its associated token account (an SPL token
   * account: mint 0..32, owner 32..64, amount u64 little-endian at 64); 0 when it has none.
   */
  async tokenBalance(owner: Address, mint: Address): Promise<bigint> {
    const account = this.svm.getAccount(await associatedTokenAccount(owner, mint));
    if (!account.exists) return 0n;
    const data = Uint8Array.from(account.data);
    return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true);
  }
}

/** `owner`'s associated token account address for `mint` (SPL Token program). */
export async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

/**
 * A fresh Ed25519 keypair as the treasury key is configured: its 64 bytes (secret then public key, as
 * solana-keygen writes them) and the signer kit makes of them.
 */
export async function newKeypair(): Promise<{ secretKey: Uint8Array; signer: KeyPairSigner }> {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const secretKey = new Uint8Array([...Buffer.from(jwk.d!, 'base64url'), ...Buffer.from(jwk.x!, 'base64url')]);
  return { secretKey, signer: await createKeyPairSignerFromBytes(secretKey) };
}

/** A new wallet address no one has used (a random public key). */
export async function newWallet(): Promise<Address> {
  return address((await generateKeyPairSigner()).address);
}

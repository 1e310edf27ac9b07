import { randomUUID } from 'node:crypto';
import { AccountRole, getBase58Decoder, type Address, type KeyPairSigner } from '@solana/kit';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Transfer } from '../../src/payouts/payout-driver.js';
import { base58, newReference } from '../../src/payouts/reference.js';
import { createSolanaPayoutDriver, MEMO_PROGRAM, type SolanaPayoutDriver } from '../../src/payouts/solana-driver.js';
import { LiteSvmChain, newKeypair, newWallet } from '../support/litesvm-chain.js';

// The Solana payout driver against a real SVM in the test process (LiteSVM, with the SPL Token,
// Associated Token and Memo programs): $CLIP moves from the treasury to clippers' wallets, each transfer
// carries its payout's reference and memo, and a transfer whose confirmation was lost is found by its
// reference instead of being sent twice (ADR 0025).

const CLIP = 1_000_000n; // one $CLIP in base units (6 decimals)

let chain: LiteSvmChain;
let driver: SolanaPayoutDriver;
let mint: Address;
let treasury: Address;
/** The treasury's signer: mint authority of the test mint as well. */
let treasurySigner: KeyPairSigner;

const transfer = (walletAddress: string, amount: bigint): Transfer => ({
  reference: newReference(),
  walletAddress,
  amount,
  memo: randomUUID(),
});

beforeAll(async () => {
  chain = new LiteSvmChain();
  const keypair = await newKeypair();
  treasurySigner = keypair.signer;
  treasury = keypair.signer.address;
  chain.airdrop(treasury);
  mint = await chain.createMint(keypair.signer, 6);
  await chain.mintTo(mint, keypair.signer, treasury, 1_000n * CLIP);
  driver = await createSolanaPayoutDriver({ chain, treasurySecretKey: JSON.stringify([...keypair.secretKey]), mint, decimals: 6 });
});

describe('a payout', () => {
  it('moves $CLIP from the treasury to each wallet, creating its token account when it has none', async () => {
    const first = await newWallet();
    const second = await newWallet();
    // The second wallet already holds $CLIP; the first has no token account yet.
    await chain.mintTo(mint, treasurySigner, second, 5n * CLIP);
    expect(await chain.hasTokenAccount(first, mint)).toBe(false);
    const before = await chain.tokenBalance(treasury, mint);

    const toFirst = transfer(first, 25n * CLIP);
    const toSecond = transfer(second, 12_500_000n); // 12.5 $CLIP
    const firstSignature = await driver.send(toFirst);
    const secondSignature = await driver.send(toSecond);

    expect(await chain.tokenBalance(first, mint)).toBe(25n * CLIP);
    expect(await chain.tokenBalance(second, mint)).toBe(5n * CLIP + 12_500_000n);
    expect(await chain.tokenBalance(treasury, mint)).toBe(before - 25n * CLIP - 12_500_000n);
    expect(firstSignature).not.toBe(secondSignature);
    // Each payout is found again by its own reference, with the signature send returned.
    expect(await driver.findByReference(toFirst.reference, first)).toBe(firstSignature);
    expect(await driver.findByReference(toSecond.reference, second)).toBe(secondSignature);
  });

  it('carries the reference on the transfer instruction and the payout id as a memo', async () => {
    const wallet = await newWallet();
    const t = transfer(wallet, 3n * CLIP);
    const signature = await driver.send(t);

    const landed = chain.transaction(signature)!;
    expect(landed.message.feePayer.address).toBe(treasury);
    const programs = landed.message.instructions.map((i) => i.programAddress);
    expect(programs).toEqual([ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, MEMO_PROGRAM]);
    // transferChecked (discriminator 12): source, mint, destination, authority, then the reference, read-only.
    const transferChecked = landed.message.instructions[1]!;
    expect(transferChecked.data?.[0]).toBe(12);
    expect(transferChecked.accounts?.[4]).toEqual({ address: t.reference, role: AccountRole.READONLY });
    // The Memo program wrote the payout's id into the transaction's logs, and the memo instruction holds it.
    // (The SPL Memo program logs `Memo (len 36): "<memo>"` on one line; the build LiteSVM runs at its
    // address, p-memo by its compute units, logs the length and the text on two.)
    const memoLog = landed.logs.findIndex((line) => line.startsWith(`Program log: Memo (len ${t.memo.length})`));
    expect(memoLog).toBeGreaterThanOrEqual(0);
    expect(landed.logs.slice(memoLog, memoLog + 2).join('\n')).toContain(t.memo);
    expect(new TextDecoder().decode(Uint8Array.from(landed.message.instructions[2]!.data ?? []))).toBe(t.memo);
  });

  it('is not found by a reference never used', async () => {
    expect(await driver.findByReference(newReference(), await newWallet())).toBeUndefined();
  });

  it('whose confirmation was lost is found by its reference and not sent again', async () => {
    const wallet = await newWallet();
    const t = transfer(wallet, 7n * CLIP);
    // A payout run: ask first, send only when nothing carries the reference.
    const pay = async () => (await driver.findByReference(t.reference, wallet)) ?? (await driver.send(t));

    chain.loseNextConfirmation();
    await expect(pay()).rejects.toThrow(/lost the confirmation/); // the run dies after sending
    const signature = await pay(); // the next run
    await pay(); // and another

    expect(await chain.tokenBalance(wallet, mint)).toBe(7n * CLIP); // paid once
    expect(chain.landed.filter((l) => l.accounts.has(t.reference as Address)).map((l) => l.signature)).toEqual([signature]);
  });

  it('that fails on chain rejects and leaves nothing to find', async () => {
    const wallet = await newWallet();
    const t = transfer(wallet, 1_000_000n * CLIP); // far more than the treasury holds
    await expect(driver.send(t)).rejects.toThrow(/insufficient funds/i);
    expect(await driver.findByReference(t.reference, wallet)).toBeUndefined();
    expect(await chain.tokenBalance(wallet, mint)).toBe(0n);
  });
});

describe('the solana driver', () => {
  it('accepts Solana addresses only', async () => {
    expect(driver.name).toBe('solana');
    expect(driver.acceptsAddress(await newWallet())).toBe(true);
    expect(driver.acceptsAddress(treasury)).toBe(true);
    const junk = [
      '',
      'not a wallet',
      '0x52908400098527886E0F7030069857D2E4169EE7', // an Ethereum address
      `${treasury}0`, // '0' is not in base58's alphabet
      'O0Il'.repeat(11),
      base58(new Uint8Array(31).fill(7)), // base58, but 31 bytes
      base58(new Uint8Array(33).fill(7)), // and 33
    ];
    for (const value of junk) {
      expect(driver.acceptsAddress(value)).toBe(false);
    }
  });

  it('reads the treasury key as base58 too, and refuses a malformed one or a bad mint', async () => {
    const keypair = await newKeypair();
    const base58 = getBase58Decoder().decode(keypair.secretKey);
    expect((await createSolanaPayoutDriver({ chain, treasurySecretKey: base58, mint })).treasuryAddress).toBe(keypair.signer.address);
    await expect(
      createSolanaPayoutDriver({ chain, treasurySecretKey: JSON.stringify([...keypair.secretKey.slice(0, 32)]), mint }),
    ).rejects.toThrow(/64 bytes/);
    await expect(createSolanaPayoutDriver({ chain, treasurySecretKey: '[1, 2, "secret"', mint })).rejects.toThrow(
      /^treasury secret key: not a valid JSON array$/,
    );
    await expect(createSolanaPayoutDriver({ chain, treasurySecretKey: base58, mint: 'junk' })).rejects.toThrow(/mint/);
  });
});

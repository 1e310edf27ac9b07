import { describe, expect, it } from '@jest/globals';
import { isSolanaWallet, WALLET_MESSAGES, walletProblem } from './wallet.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

describe('Solana wallet', () => {
  it('is 32 to 44 base58 characters', () => {
    expect(isSolanaWallet(WALLET)).toBe(true);
    expect(isSolanaWallet('1'.repeat(32))).toBe(true);
    expect(isSolanaWallet('z'.repeat(44))).toBe(true);
    expect(isSolanaWallet('1'.repeat(31))).toBe(false);
    expect(isSolanaWallet('1'.repeat(45))).toBe(false);
  });

  it.each(['0', 'O', 'I', 'l', '-', ' ', 'é'])('refuses %j, which is not base58', (char) => {
    expect(isSolanaWallet(char + WALLET.slice(1))).toBe(false);
  });

  it('takes the value exactly: trimming is the caller’s (walletProblem trims)', () => {
    expect(isSolanaWallet(` ${WALLET}`)).toBe(false);
    expect(walletProblem(` ${WALLET} `, WALLET_MESSAGES.required)).toBeUndefined();
  });

  it('says what is wrong in the words of the form it is on', () => {
    expect(walletProblem('', WALLET_MESSAGES.required)).toBe('Wallet address is required');
    expect(walletProblem('   ', WALLET_MESSAGES.requiredOnSignUp)).toBe('Solana wallet address is required');
    expect(walletProblem(null, WALLET_MESSAGES.required)).toBe('Wallet address is required');
    expect(walletProblem('0x1234', WALLET_MESSAGES.required)).toBe('Please enter a valid Solana wallet address');
  });
});

import type { DataSource } from 'typeorm';
import type { RewardsConfig } from '../config.js';
import { LedgerPayoutDriver } from './ledger-driver.js';
import type { PayoutDriver } from './payout-driver.js';

/** The payout driver PAYOUT_DRIVER names; the solana driver refuses to start without its treasury key and mint. */
export async function createPayoutDriver(config: RewardsConfig, dataSource: DataSource): Promise<PayoutDriver> {
  if (config.PAYOUT_DRIVER === 'ledger') return new LedgerPayoutDriver(dataSource);
  if (!config.SOLANA_TREASURY_KEY || !config.SOLANA_CLIP_MINT) {
    throw new Error('PAYOUT_DRIVER=solana needs SOLANA_TREASURY_KEY and SOLANA_CLIP_MINT');
  }
  const { createSolanaPayoutDriver, rpcChain } = await import('./solana-driver.js');
  return createSolanaPayoutDriver({
    chain: rpcChain(config.SOLANA_RPC_URL),
    treasurySecretKey: config.SOLANA_TREASURY_KEY,
    mint: config.SOLANA_CLIP_MINT,
    decimals: 6,
  });
}

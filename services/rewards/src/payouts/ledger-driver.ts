import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { PayoutDriver, Transfer } from './payout-driver.js';
import { base58, looksLikeSolanaAddress } from './reference.js';

/**
 * The default payout driver: records each transfer in `ledger_transfers` and sends nothing, for
 * deployments that pay out of band (or not yet). Its signature is derived from the reference, so it is
 * the same however often the same transfer is recorded; a payout run finds a recorded transfer by its
 * reference exactly as it finds a confirmed Solana transaction.
 */
export class LedgerPayoutDriver implements PayoutDriver {
  readonly name = 'ledger';

  constructor(private readonly dataSource: DataSource) {}

  acceptsAddress(walletAddress: string): boolean {
    return looksLikeSolanaAddress(walletAddress);
  }

  async findByReference(reference: string): Promise<string | undefined> {
    const rows = (await this.dataSource.query('SELECT signature FROM ledger_transfers WHERE reference = $1', [reference])) as {
      signature: string;
    }[];
    return rows[0]?.signature;
  }

  async send(t: Transfer): Promise<string> {
    const signature = base58(createHash('sha512').update(`ledger:${t.reference}`).digest());
    const recorded = (await this.dataSource.query(
      `INSERT INTO ledger_transfers (reference, signature, wallet_address, amount_base_units, memo) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (reference) DO NOTHING RETURNING signature`,
      [t.reference, signature, t.walletAddress, t.amount.toString(), t.memo],
    )) as { signature: string }[];
    // Recorded before (the same transfer again): the signature it has.
    return recorded[0]?.signature ?? (await this.findByReference(t.reference))!;
  }
}

import type { rewardsV1 } from '@clipit/contracts';
import { z } from 'zod';
import { v1Page } from './v1-paging.js';

// A clipper's earnings and payouts as the versioned read API answers them (ADR 0053): shapes of their own,
// stable within v1. $CLIP amounts are decimal strings (up to 6 decimals), as rewards keeps them: exact, never floats.

const orNull = <T>(v: T | undefined): T | null => (v === undefined || v === '' ? null : v);
const amount = z.string().meta({ description: '$CLIP, a decimal string with up to 6 decimals ("12.5")' });
const STATUSES = ['pending', 'held', 'voided', 'paid'] as const;

export const v1EarningSchema = z
  .object({
    id: z.string(),
    submissionId: z.string(),
    submissionName: z.string().nullable(),
    amount,
    type: z.string().meta({ description: '`post`: an approved clip' }),
    status: z.enum(STATUSES).meta({
      description: '`held`: its clip is flagged and an admin decides (ADR 0050); `voided`: never paid; `paid`: in a payout',
    }),
    holdReasons: z.array(z.string()).meta({ description: 'Why it is (or was) held, in words for the clipper; empty when never held' }),
    heldAt: z.string().nullable(),
    decision: z
      .object({ decision: z.enum(['released', 'voided']), reason: z.string(), at: z.string() })
      .nullable()
      .meta({ description: "An admin's decision on its hold, with their reason; null when none" }),
    payoutId: z.string().nullable(),
    txSignature: z.string().nullable().meta({ description: 'The payout transaction’s signature (Solana) once paid' }),
    createdAt: z.string(),
  })
  .meta({ id: 'V1Earning' });
export type V1Earning = z.infer<typeof v1EarningSchema>;
export const v1EarningPageSchema = v1Page(v1EarningSchema, 'V1EarningPage');

export function toV1Earning(e: rewardsV1.Earning): V1Earning {
  return {
    id: e.id,
    submissionId: e.submissionId,
    submissionName: orNull(e.submissionName),
    amount: e.amount,
    type: e.type,
    status: z.enum(STATUSES).catch('pending').parse(e.status),
    holdReasons: e.holdReasons ?? [],
    heldAt: orNull(e.heldAt),
    decision: e.decision
      ? { decision: e.decision.decision === 'voided' ? 'voided' : 'released', reason: e.decision.reason, at: e.decision.at }
      : null,
    payoutId: orNull(e.payoutId),
    txSignature: orNull(e.txHash),
    createdAt: e.createdAt,
  };
}

export const v1PayoutSchema = z
  .object({
    id: z.string(),
    amount,
    walletAddress: z.string(),
    txSignature: z.string().nullable().meta({ description: 'The transfer’s transaction signature (Solana), or the ledger’s record' }),
    periodStart: z.string(),
    periodEnd: z.string(),
    paidAt: z.string(),
    earningsCount: z.number().int(),
  })
  .meta({ id: 'V1Payout' });
export type V1Payout = z.infer<typeof v1PayoutSchema>;
export const v1PayoutPageSchema = v1Page(v1PayoutSchema, 'V1PayoutPage');

export function toV1Payout(p: rewardsV1.Payout): V1Payout {
  return {
    id: p.id,
    amount: p.amount,
    walletAddress: p.walletAddress,
    txSignature: orNull(p.txHash),
    periodStart: p.periodStart,
    periodEnd: p.periodEnd,
    paidAt: p.paidAt,
    earningsCount: p.earningsCount,
  };
}

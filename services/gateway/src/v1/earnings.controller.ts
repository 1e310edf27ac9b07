import { Controller, Inject, Query } from '@nestjs/common';
import { REWARDS_CLIENT, type RewardsClient } from '../clients.js';
import { CurrentApiKey } from '../http/api-key.guard.js';
import type { ApiKeyPrincipal } from '../http/api-key-authenticator.js';
import { Endpoint } from '../http/endpoint.js';
import { v1EarningRoutes } from './earnings.routes.js';
import { toV1Earning, toV1Payout, type V1Earning, type V1Payout } from './earnings.schemas.js';
import { ownerPage, type V1Page } from './v1-paging.js';

/** The key owner's earnings and payouts: rewards' answers for that clipper. */
@Controller()
export class V1EarningsController {
  constructor(@Inject(REWARDS_CLIENT) private readonly rewards: RewardsClient) {}

  @Endpoint(v1EarningRoutes.earnings)
  async earnings(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<V1Page<V1Earning>> {
    const { earnings = [], nextCursor } = await this.rewards.listEarnings({ userId: key.userId, ...ownerPage(query) });
    return { items: earnings.map(toV1Earning), nextCursor: nextCursor ?? null };
  }

  @Endpoint(v1EarningRoutes.payouts)
  async payouts(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<V1Page<V1Payout>> {
    const { payouts = [], nextCursor } = await this.rewards.listPayouts({ userId: key.userId, ...ownerPage(query) });
    return { items: payouts.map(toV1Payout), nextCursor: nextCursor ?? null };
  }
}

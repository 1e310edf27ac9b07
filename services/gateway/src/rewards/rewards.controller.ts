import { Controller, Inject, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { REWARDS_CLIENT, type RewardsClient } from '../clients.js';
import { Endpoint } from '../http/endpoint.js';
import { hasPendingWrites } from '../http/pending-writes.js';
import { sendJson, serialize } from '../feed/read-cache.js';
import { DashboardCache } from './dashboard-cache.js';
import { rewardsRoutes } from './rewards.routes.js';
import {
  toClipperStatsJson,
  toDashboardJson,
  toEarningsPageJson,
  toPayoutsPageJson,
  toTiersJson,
  type ClipperStatsJson,
  type DashboardJson,
  type EarningsPageJson,
  type PayoutsPageJson,
  type TiersJson,
} from './rewards.schemas.js';

const page = (cursor?: string, limit?: string) => ({ limit: Number(limit) || 0, ...(cursor ? { cursor } : {}) });

/**
 * The clipper dashboard's reads, Refresh Points, earnings and the public payout ledger: each route is one
 * call to the rewards service (the dashboard adds the signed-in user the session already holds).
 */
@Controller()
export class RewardsController {
  constructor(
    @Inject(REWARDS_CLIENT) private readonly rewards: RewardsClient,
    private readonly dashboards: DashboardCache,
  ) {}

  /** From the user's cached answer when there is one (DashboardCache, ADR 0045), which is usually sent at the front. */
  @Endpoint(rewardsRoutes.dashboard)
  @UseGuards(SessionGuard)
  async dashboard(@Res() reply: FastifyReply, @CurrentSession() session: SessionPrincipal): Promise<FastifyReply> {
    const load = async (): Promise<DashboardJson> =>
      toDashboardJson(session.user, await this.rewards.getDashboard({ userId: session.user.id }));
    // A reader waiting for their own write is answered afresh (read-your-writes).
    const answer = hasPendingWrites(reply.request.raw) ? serialize(await load()) : await this.dashboards.get(session.user.id, load);
    return sendJson(reply.request, reply, answer, false);
  }

  @Endpoint(rewardsRoutes.clipperStats)
  async clipperStats(@Param('userId') userId: string): Promise<ClipperStatsJson> {
    return toClipperStatsJson(await this.rewards.getClipperStats({ userId }));
  }

  @Endpoint(rewardsRoutes.refreshPoints)
  @UseGuards(SessionGuard)
  async refreshPoints(@CurrentSession() session: SessionPrincipal): Promise<ClipperStatsJson> {
    return toClipperStatsJson(await this.rewards.refreshPoints({ userId: session.user.id }));
  }

  @Endpoint(rewardsRoutes.earnings)
  @UseGuards(SessionGuard)
  async earnings(
    @CurrentSession() session: SessionPrincipal,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<EarningsPageJson> {
    return toEarningsPageJson(await this.rewards.listEarnings({ userId: session.user.id, ...page(cursor, limit) }));
  }

  @Endpoint(rewardsRoutes.myPayouts)
  @UseGuards(SessionGuard)
  async myPayouts(
    @CurrentSession() session: SessionPrincipal,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<PayoutsPageJson> {
    return toPayoutsPageJson(await this.rewards.listPayouts({ userId: session.user.id, ...page(cursor, limit) }));
  }

  @Endpoint(rewardsRoutes.payouts)
  async payouts(@Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<PayoutsPageJson> {
    return toPayoutsPageJson(await this.rewards.listPayouts(page(cursor, limit)));
  }

  @Endpoint(rewardsRoutes.tiers)
  async tiers(): Promise<TiersJson> {
    return toTiersJson(await this.rewards.listTiers({}));
  }
}

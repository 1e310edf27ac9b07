import { Controller, Inject, Param, Query } from '@nestjs/common';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { CurrentApiKey } from '../http/api-key.guard.js';
import type { ApiKeyPrincipal } from '../http/api-key-authenticator.js';
import { Endpoint } from '../http/endpoint.js';
import { uuidParam } from '../http/path-params.js';
import { V1CampaignClips } from './campaign-clips.service.js';
import { INVALID_CAMPAIGN_ID, v1CampaignRoutes } from './campaigns.routes.js';
import { toV1Campaign, type V1Campaign, type V1CampaignClip } from './campaigns.schemas.js';
import { ownerPage, type V1Page } from './v1-paging.js';

/** The key owner's CPM campaigns (as a streamer) and the clips each counts: campaigns' answers, with submissions' histories. */
@Controller()
export class V1CampaignsController {
  constructor(
    @Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient,
    private readonly clipPages: V1CampaignClips,
  ) {}

  @Endpoint(v1CampaignRoutes.list)
  async list(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<V1Page<V1Campaign>> {
    const { campaigns = [], nextCursor } = await this.campaigns.listCampaigns({ streamerId: key.userId, ...ownerPage(query) });
    return { items: campaigns.map(toV1Campaign), nextCursor: nextCursor ?? null };
  }

  @Endpoint(v1CampaignRoutes.clips)
  clips(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<V1Page<V1CampaignClip>> {
    return this.clipPages.page(key.userId, uuidParam(id, INVALID_CAMPAIGN_ID), ownerPage(query));
  }
}

import { Module } from '@nestjs/common';
import { V1CampaignClips } from './campaign-clips.service.js';
import { V1CampaignsController } from './campaigns.controller.js';
import { V1EarningsController } from './earnings.controller.js';
import { V1LeaderboardsController } from './leaderboards.controller.js';
import { V1SubmissionsController } from './submissions.controller.js';

/**
 * The versioned read API (/api/v1, ADR 0053): programs read with an API key (ApiKeyGuard, which
 * `Endpoint()` puts on every route naming a scope), never a cookie; documented in its own OpenAPI document.
 * Each route reads its owner over gRPC for the key's owner: campaigns, submissions, rewards, feed.
 */
@Module({
  controllers: [V1CampaignsController, V1SubmissionsController, V1EarningsController, V1LeaderboardsController],
  providers: [V1CampaignClips],
})
export class V1Module {}

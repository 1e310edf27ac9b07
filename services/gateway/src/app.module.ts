import { Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module.js';
import { AppealsModule } from './appeals/appeals.module.js';
import { ApplicationsModule } from './applications/applications.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CampaignsModule } from './campaigns/campaigns.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { DocsModule } from './docs/docs.module.js';
import { FeedModule } from './feed/feed.module.js';
import { LimitsModule } from './http/limits.module.js';
import { MediaModule } from './media/media.module.js';
import { RewardsModule } from './rewards/rewards.module.js';
import { SocialModule } from './social/social.module.js';
import { SubmissionsModule } from './submissions/submissions.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { TwitterModule } from './twitter/twitter.module.js';
import { UsersModule } from './users/users.module.js';
import { DeveloperAccessModule } from './developer/developer.module.js';
import { V1Module } from './v1/v1.module.js';
import { WebModule } from './web/web.module.js';

/** The gateway's route modules; the kit provides config, logger, Redis, storage and the gRPC clients. */
@Module({
  // WebModule last: its catch-all GET serves the site for every path no other module claims.
  imports: [
    // The rate limits' counters, for every route that names a limit (http/limits.ts).
    LimitsModule,
    AuthModule,
    UsersModule,
    CatalogModule,
    TokensModule,
    SubmissionsModule,
    AdminModule,
    ApplicationsModule,
    AppealsModule,
    CampaignsModule,
    SocialModule,
    FeedModule,
    RewardsModule,
    MediaModule,
    DocsModule,
    TwitterModule,
    DeveloperAccessModule,
    V1Module,
    WebModule,
  ],
})
export class GatewayModule {}

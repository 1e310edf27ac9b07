import { Controller, HttpCode, Param, Query, UseGuards } from '@nestjs/common';
import { CurrentSession, OptionalSession, OptionalSessionGuard, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { campaignRoutes } from './campaigns.routes.js';
import type {
  CampaignsPageJson,
  CampaignSubmittedJson,
  HireJson,
  HireRatedJson,
  HireRatingBody,
  HireRequestBody,
  HireSentJson,
  HiresPageJson,
  HiringProfileJson,
  RespondToHireBody,
  SubmitCampaignBody,
  UpdateClipperProfileBody,
} from './campaigns.schemas.js';
import { HireTargetGuard } from './hire-target.guard.js';
import { HiringService } from './hiring.service.js';

/**
 * CPM campaigns (streamers), clipper hiring profiles and hire requests, each one call to the campaigns
 * service through HiringService. A hire request (open to visitors, ADR 0027) is counted per address by the
 * route's limit once its target and its body pass.
 */
@Controller()
export class CampaignsController {
  constructor(private readonly hiring: HiringService) {}

  @Endpoint(campaignRoutes.submitCampaign)
  @UseGuards(SessionGuard)
  submitCampaign(@CurrentSession() session: SessionPrincipal, @ValidBody() body: SubmitCampaignBody): Promise<CampaignSubmittedJson> {
    return this.hiring.submitCampaign(session, body);
  }

  @Endpoint(campaignRoutes.myCampaigns)
  @UseGuards(SessionGuard)
  myCampaigns(@CurrentSession() session: SessionPrincipal, @Query() query: Record<string, unknown>): Promise<CampaignsPageJson> {
    return this.hiring.myCampaigns(session, query);
  }

  @Endpoint(campaignRoutes.clipperProfile)
  clipperProfile(@Param('clipperId') clipperId: string): Promise<HiringProfileJson> {
    return this.hiring.clipperProfile(clipperId);
  }

  @Endpoint(campaignRoutes.updateClipperProfile)
  @UseGuards(SessionGuard)
  updateClipperProfile(
    @CurrentSession() session: SessionPrincipal,
    @ValidBody() body: UpdateClipperProfileBody,
  ): Promise<HiringProfileJson> {
    return this.hiring.updateClipperProfile(session, body);
  }

  @Endpoint(campaignRoutes.hire)
  @UseGuards(OptionalSessionGuard, HireTargetGuard)
  hire(
    @Param('clipperId') clipperId: string,
    @ValidBody() body: HireRequestBody,
    @OptionalSession() session: SessionPrincipal | undefined,
  ): Promise<HireSentJson> {
    return this.hiring.hire(clipperId, body, session);
  }

  @Endpoint(campaignRoutes.myHires)
  @UseGuards(SessionGuard)
  myHires(@CurrentSession() session: SessionPrincipal, @Query() query: Record<string, unknown>): Promise<HiresPageJson> {
    return this.hiring.myHires(session, query);
  }

  @Endpoint(campaignRoutes.acceptHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  acceptHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.hiring.respond(session, hireId, 'accept', body);
  }

  @Endpoint(campaignRoutes.declineHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  declineHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.hiring.respond(session, hireId, 'decline', body);
  }

  @Endpoint(campaignRoutes.completeHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  completeHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.hiring.respond(session, hireId, 'complete', body);
  }

  @Endpoint(campaignRoutes.rateHire)
  @HttpCode(200)
  rateHire(@Param('hireId') hireId: string, @ValidBody() body: HireRatingBody): Promise<HireRatedJson> {
    return this.hiring.rate(hireId, body);
  }
}

import {
  CAMPAIGN_MESSAGES,
  checkCampaign,
  checkHireRequest,
  firstCampaignError,
  firstHireError,
  HIRE_MESSAGES,
  isHireStatus,
} from '@clipit/field-rules';
import type { RateLimiter, RateLimitVerdict } from '@clipit/service-kit';
import {
  BadRequestException,
  Controller,
  ForbiddenException,
  HttpCode,
  Inject,
  Param,
  Query,
  Req,
  ServiceUnavailableException,
  UseGuards,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentSession, OptionalSession, OptionalSessionGuard, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { SERVICE_UNAVAILABLE } from '../http/messages.js';
import { pageQuery } from '../http/paging.js';
import { uuidParam } from '../http/path-params.js';
import { campaignRoutes } from './campaigns.routes.js';
import {
  toCampaignJson,
  toHiringProfileJson,
  toHireJson,
  type CampaignsPageJson,
  type CampaignSubmittedJson,
  type HiringProfileJson,
  type HireJson,
  type HireRequestBody,
  type HireSentJson,
  type HiresPageJson,
  type RespondToHireBody,
  type SubmitCampaignBody,
  type UpdateClipperProfileBody,
} from './campaigns.schemas.js';
import { HIRE_LIMITER, HireLimitReached, HIRES_ACTION } from './hire-limit.js';

const PAGE_MAX = 200;

const numberText = (value: number | string): string => (typeof value === 'number' ? String(value) : value);

/**
 * CPM campaigns (streamers), clipper hiring profiles and hire requests: each route is one call to the
 * campaigns service, which owns the rules. The shared rules (@clipit/field-rules) are checked here first
 * so a refused request costs no call, and a hire request (open to visitors, ADR 0027) is counted per
 * address only once it passes them.
 */
@Controller()
export class CampaignsController {
  constructor(
    @Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient,
    @Inject(HIRE_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  @Endpoint(campaignRoutes.submitCampaign)
  @UseGuards(SessionGuard)
  async submitCampaign(@CurrentSession() session: SessionPrincipal, @ValidBody() body: SubmitCampaignBody): Promise<CampaignSubmittedJson> {
    if (session.user.role !== 'streamer') throw new ForbiddenException(CAMPAIGN_MESSAGES.streamersOnly);
    const checked = checkCampaign(body, 'shared');
    if (!checked.ok) throw new BadRequestException(firstCampaignError(checked.errors));
    const v = checked.value;
    const stored = await this.campaigns.submitCampaign({
      streamerId: session.user.id,
      callerRole: session.user.role,
      title: v.title,
      description: v.description,
      targetViews: String(v.targetViews),
      budgetAmount: v.budgetAmount.toFixed(2),
      ...(v.contentLink !== null ? { contentLink: v.contentLink } : {}),
    });
    return { campaign: toCampaignJson(stored), message: CAMPAIGN_MESSAGES.submitted };
  }

  @Endpoint(campaignRoutes.myCampaigns)
  @UseGuards(SessionGuard)
  async myCampaigns(@CurrentSession() session: SessionPrincipal, @Query() query: Record<string, unknown>): Promise<CampaignsPageJson> {
    const page = await this.campaigns.listCampaigns({ streamerId: session.user.id, ...pageQuery(query, PAGE_MAX) });
    return { campaigns: (page.campaigns ?? []).map(toCampaignJson), nextCursor: page.nextCursor ?? null, total: Number(page.total) };
  }

  @Endpoint(campaignRoutes.clipperProfile)
  async clipperProfile(@Param('clipperId') clipperId: string): Promise<HiringProfileJson> {
    return toHiringProfileJson(await this.campaigns.getClipperProfile({ userId: uuidParam(clipperId, 'Invalid clipper id') }));
  }

  @Endpoint(campaignRoutes.updateClipperProfile)
  @UseGuards(SessionGuard)
  async updateClipperProfile(
    @CurrentSession() session: SessionPrincipal,
    @ValidBody() body: UpdateClipperProfileBody,
  ): Promise<HiringProfileJson> {
    const updated = await this.campaigns.updateClipperProfile({
      userId: session.user.id,
      ...(body.bio !== undefined ? { bio: body.bio ?? '' } : {}),
      setPortfolioUrls: body.portfolioUrls !== undefined,
      portfolioUrls: body.portfolioUrls ?? [],
      setSpecialties: body.specialties !== undefined,
      specialties: body.specialties ?? [],
      ...(body.yearsExperience !== undefined && body.yearsExperience !== null ? { yearsExperience: body.yearsExperience } : {}),
      ...(body.hourlyRate !== undefined && body.hourlyRate !== null ? { hourlyRate: numberText(body.hourlyRate) } : {}),
      ...(body.isAvailable !== undefined ? { isAvailable: String(body.isAvailable) } : {}),
      setSocialLinks: body.socialLinks !== undefined,
      socialLinks: body.socialLinks ?? [],
      setServices: body.services !== undefined,
      services: (body.services ?? []).map((s) => ({
        serviceName: s.serviceName,
        ...(s.description ? { description: s.description } : {}),
        ...(s.basePrice !== undefined && s.basePrice !== null ? { basePrice: numberText(s.basePrice) } : {}),
        ...(s.deliveryTimeHours !== undefined && s.deliveryTimeHours !== null ? { deliveryTimeHours: s.deliveryTimeHours } : {}),
        isActive: s.isActive ?? true,
      })),
    });
    return toHiringProfileJson(updated);
  }

  @Endpoint(campaignRoutes.hire)
  @UseGuards(OptionalSessionGuard)
  async hire(
    @Param('clipperId') clipperIdParam: string,
    @ValidBody() body: HireRequestBody,
    @OptionalSession() session: SessionPrincipal | undefined,
    @Req() req: FastifyRequest,
  ): Promise<HireSentJson> {
    const clipperId = uuidParam(clipperIdParam, 'Invalid clipper id');
    if (body.clipperId !== undefined && body.clipperId !== null && body.clipperId.toLowerCase() !== clipperId) {
      throw new BadRequestException('clipperId does not match the path');
    }
    const checked = checkHireRequest({ ...body, budget: body.budget ?? null });
    if (!checked.ok) throw new BadRequestException(firstHireError(checked.errors));
    if (session?.user.id === clipperId) throw new BadRequestException(HIRE_MESSAGES.self);

    let verdict: RateLimitVerdict;
    try {
      verdict = await this.limiter.hit(HIRES_ACTION, req.ip);
    } catch (err) {
      throw new ServiceUnavailableException(SERVICE_UNAVAILABLE, { cause: err });
    }
    if (!verdict.allowed) throw new HireLimitReached(verdict.retryAfterSeconds);

    const v = checked.value;
    const stored = await this.campaigns.requestHire({
      clipperId,
      ...(session ? { clientUserId: session.user.id } : {}),
      clientName: v.clientName,
      clientEmail: v.clientEmail,
      projectDescription: v.projectDescription,
      ...(v.budget !== null ? { budget: v.budget.toFixed(2) } : {}),
      urgency: v.urgency,
      preferredContact: v.preferredContact,
      contactInfo: v.contactInfo,
    });
    return { id: stored.id, status: 'pending', message: HIRE_MESSAGES.sent };
  }

  @Endpoint(campaignRoutes.myHires)
  @UseGuards(SessionGuard)
  async myHires(@CurrentSession() session: SessionPrincipal, @Query() query: Record<string, unknown>): Promise<HiresPageJson> {
    const status = query['status'];
    if (status !== undefined && status !== '' && !isHireStatus(status)) throw new BadRequestException('Invalid status');
    const page = await this.campaigns.listHires({
      clipperId: session.user.id,
      ...(typeof status === 'string' && status !== '' ? { status } : {}),
      ...pageQuery(query, PAGE_MAX),
    });
    return { hires: (page.hires ?? []).map(toHireJson), nextCursor: page.nextCursor ?? null, total: Number(page.total) };
  }

  @Endpoint(campaignRoutes.acceptHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  acceptHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.respond(session, hireId, 'accept', body);
  }

  @Endpoint(campaignRoutes.declineHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  declineHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.respond(session, hireId, 'decline', body);
  }

  @Endpoint(campaignRoutes.completeHire)
  @UseGuards(SessionGuard)
  @HttpCode(200)
  completeHire(
    @CurrentSession() session: SessionPrincipal,
    @Param('hireId') hireId: string,
    @ValidBody() body: RespondToHireBody,
  ): Promise<HireJson> {
    return this.respond(session, hireId, 'complete', body);
  }

  private async respond(
    session: SessionPrincipal,
    hireId: string,
    action: 'accept' | 'decline' | 'complete',
    body: RespondToHireBody,
  ): Promise<HireJson> {
    const answered = await this.campaigns.respondToHire({
      id: uuidParam(hireId, 'Invalid hire request id'),
      clipperId: session.user.id,
      action,
      ...(body.clipperNotes ? { clipperNotes: body.clipperNotes } : {}),
    });
    return toHireJson(answered);
  }
}

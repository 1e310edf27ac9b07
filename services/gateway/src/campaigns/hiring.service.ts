import {
  CAMPAIGN_MESSAGES,
  checkCampaign,
  firstCampaignError,
  HIRE_MESSAGES,
  HIRE_RATING_MESSAGES,
  hireRatingPath,
  isHireStatus,
} from '@clipit/field-rules';
import { BadRequestException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import type { SessionPrincipal } from '../auth/session.strategy.js';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { pageQuery } from '../http/paging.js';
import { uuidParam } from '../http/path-params.js';
import {
  toCampaignJson,
  toClipperProfileUpdate,
  toHireJson,
  toHiringProfileJson,
  type CampaignsPageJson,
  type CampaignSubmittedJson,
  type HireJson,
  type HireRatedJson,
  type HireRatingBody,
  type HireRequestBody,
  type HireSentJson,
  type HiresPageJson,
  type HiringProfileJson,
  type RespondToHireBody,
  type SubmitCampaignBody,
  type UpdateClipperProfileBody,
} from './campaigns.schemas.js';

const PAGE_MAX = 200;

/**
 * CPM campaigns (streamers), clipper hiring profiles and hire requests: each is one call to the campaigns
 * service, which owns the rules. The shared rules (@clipit/field-rules) are checked here first so a refused
 * request costs no call.
 */
@Injectable()
export class HiringService {
  constructor(@Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient) {}

  async submitCampaign(session: SessionPrincipal, body: SubmitCampaignBody): Promise<CampaignSubmittedJson> {
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

  async myCampaigns(session: SessionPrincipal, query: Record<string, unknown>): Promise<CampaignsPageJson> {
    const page = await this.campaigns.listCampaigns({ streamerId: session.user.id, ...pageQuery(query, PAGE_MAX) });
    return { campaigns: (page.campaigns ?? []).map(toCampaignJson), nextCursor: page.nextCursor ?? null, total: Number(page.total) };
  }

  async clipperProfile(clipperId: string): Promise<HiringProfileJson> {
    return toHiringProfileJson(await this.campaigns.getClipperProfile({ userId: uuidParam(clipperId, 'Invalid clipper id') }));
  }

  async updateClipperProfile(session: SessionPrincipal, body: UpdateClipperProfileBody): Promise<HiringProfileJson> {
    return toHiringProfileJson(await this.campaigns.updateClipperProfile(toClipperProfileUpdate(session.user.id, body)));
  }

  /** A hire request whose target HireTargetGuard checked and whose body passed the rules (and the route's limit). */
  async hire(clipperId: string, v: HireRequestBody, session: SessionPrincipal | undefined): Promise<HireSentJson> {
    const stored = await this.campaigns.requestHire({
      clipperId: uuidParam(clipperId, 'Invalid clipper id'),
      ...(session ? { clientUserId: session.user.id } : {}),
      clientName: v.clientName,
      clientEmail: v.clientEmail,
      projectDescription: v.projectDescription,
      ...(v.budget !== null ? { budget: v.budget.toFixed(2) } : {}),
      urgency: v.urgency,
      preferredContact: v.preferredContact,
      contactInfo: v.contactInfo,
    });
    const ratingToken = stored.ratingToken ?? '';
    return {
      id: stored.id,
      status: 'pending',
      message: HIRE_MESSAGES.sent,
      ratingToken,
      ratingUrl: hireRatingPath(stored.id, ratingToken),
    };
  }

  /** The client's rating; the campaigns service checks the token, the hire's state and the rules again. */
  async rate(hireId: string, body: HireRatingBody): Promise<HireRatedJson> {
    const rated = await this.campaigns.rateHire({
      id: uuidParam(hireId, 'Invalid hire request id'),
      token: body.token,
      rating: body.rating,
      ...(body.review !== null ? { review: body.review } : {}),
    });
    return {
      hireId: rated.hire!.id,
      clipperId: rated.hire!.clipperId,
      rating: rated.hire!.clientRating ?? body.rating,
      review: rated.hire!.clientReview ?? null,
      averageRating: Number(rated.averageRating),
      totalReviews: rated.totalReviews,
      message: HIRE_RATING_MESSAGES.saved,
    };
  }

  async myHires(session: SessionPrincipal, query: Record<string, unknown>): Promise<HiresPageJson> {
    const status = query['status'];
    // The statuses a list can be asked for are @clipit/field-rules' (the campaigns service checks them again).
    if (status !== undefined && status !== '' && !isHireStatus(status)) throw new BadRequestException('Invalid status');
    const page = await this.campaigns.listHires({
      clipperId: session.user.id,
      ...(typeof status === 'string' && status !== '' ? { status } : {}),
      ...pageQuery(query, PAGE_MAX),
    });
    return { hires: (page.hires ?? []).map(toHireJson), nextCursor: page.nextCursor ?? null, total: Number(page.total) };
  }

  async respond(
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

import { BadRequestException, Controller, Inject, Param, Query, Req, UseGuards } from '@nestjs/common';
import type { adminV1 } from '@clipit/contracts';
import type { FastifyRequest } from 'fastify';
import { ADMIN_CLIENT, type AdminClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { RateLimitedError } from '../http/http-errors.js';
import { pageQuery } from '../http/paging.js';
import { uuidParam } from '../http/path-params.js';
import { AdminBearerGuard, AdminCaller } from './admin-bearer.guard.js';
import { adminRoutes } from './admin.routes.js';
import {
  ADMIN_CAMPAIGN_STATUSES,
  toAdminCampaignJson,
  toAdminSubmissionJson,
  toApplicationJson,
  toAuditPageJson,
  toPlaceholderJson,
  type AdminCampaignJson,
  type AdminCampaignPageJson,
  type AdminSubmissionJson,
  type AdminSubmissionPageJson,
  type CreatePlaceholderBody,
  type PlaceholderStreamerJson,
  type RejectBody,
  type RejectCampaignBody,
  type VerifyPasswordBody,
} from './admin.schemas.js';

const PAGE_MAX = 200;

/**
 * The admin area's routes (spec 02 §2.4, §7; ADR 0020): each is one call to the admin service, which
 * checks the token, carries the command to its owner and audits it.
 */
@Controller()
export class AdminController {
  constructor(@Inject(ADMIN_CLIENT) private readonly admin: AdminClient) {}

  @Endpoint(adminRoutes.verifyPassword)
  async verifyPassword(@ValidBody() body: VerifyPasswordBody, @Req() req: FastifyRequest): Promise<{ token: string; expiresAt: string }> {
    const answer = await this.admin.verifyPassword({ password: body.password, clientIp: req.ip });
    if (answer.retryAfterSeconds) throw new RateLimitedError(answer.retryAfterSeconds);
    if (!answer.token || !answer.expiresAt) throw new Error('the admin service answered without a token');
    return { token: answer.token, expiresAt: answer.expiresAt };
  }

  @Endpoint(adminRoutes.listSubmissions)
  @UseGuards(AdminBearerGuard)
  async listSubmissions(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Query() query: Record<string, unknown>,
  ): Promise<AdminSubmissionPageJson> {
    const page = await this.admin.listSubmissions({ caller, ...pageQuery(query, PAGE_MAX) });
    return {
      submissions: (page.submissions ?? []).map(toAdminSubmissionJson),
      nextCursor: page.nextCursor ?? null,
      total: Number(page.total),
      createdLast7Days: Number(page.createdPastWeek),
    };
  }

  @Endpoint(adminRoutes.approve)
  @UseGuards(AdminBearerGuard)
  approve(@AdminCaller() caller: adminV1.AdminCaller, @Param('id') id: string, @ValidBody() _body: object): Promise<AdminSubmissionJson> {
    return this.moderate(caller, id, 'approve');
  }

  @Endpoint(adminRoutes.approveAndAddToFeed)
  @UseGuards(AdminBearerGuard)
  approveAndAddToFeed(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() _body: object,
  ): Promise<AdminSubmissionJson> {
    return this.moderate(caller, id, 'approve-and-add-to-feed');
  }

  @Endpoint(adminRoutes.reject)
  @UseGuards(AdminBearerGuard)
  reject(@AdminCaller() caller: adminV1.AdminCaller, @Param('id') id: string, @ValidBody() body: RejectBody): Promise<AdminSubmissionJson> {
    return this.moderate(caller, id, 'reject', body.reason);
  }

  @Endpoint(adminRoutes.addToFeed)
  @UseGuards(AdminBearerGuard)
  addToFeed(@AdminCaller() caller: adminV1.AdminCaller, @Param('id') id: string, @ValidBody() _body: object): Promise<AdminSubmissionJson> {
    return this.moderate(caller, id, 'add-to-feed');
  }

  @Endpoint(adminRoutes.removeFromFeed)
  @UseGuards(AdminBearerGuard)
  removeFromFeed(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() _body: object,
  ): Promise<AdminSubmissionJson> {
    return this.moderate(caller, id, 'remove-from-feed');
  }

  @Endpoint(adminRoutes.listPlaceholders)
  @UseGuards(AdminBearerGuard)
  async listPlaceholders(@AdminCaller() caller: adminV1.AdminCaller): Promise<PlaceholderStreamerJson[]> {
    const { placeholders } = await this.admin.listPlaceholderStreamers({ caller });
    return (placeholders ?? []).map(toPlaceholderJson);
  }

  @Endpoint(adminRoutes.createPlaceholder)
  @UseGuards(AdminBearerGuard)
  async createPlaceholder(
    @AdminCaller() caller: adminV1.AdminCaller,
    @ValidBody() body: CreatePlaceholderBody,
  ): Promise<PlaceholderStreamerJson> {
    const multiplier = body.streamerMultiplier;
    const created = await this.admin.createPlaceholderStreamer({
      caller,
      displayName: body.displayName ?? '',
      twitterUsername: body.twitterUsername ?? '',
      profileImageUrl: body.profileImageUrl ?? undefined,
      bannerImageUrl: body.bannerImageUrl ?? undefined,
      streamerMultiplier: multiplier === null || multiplier === undefined ? undefined : String(multiplier),
    });
    return toPlaceholderJson(created);
  }

  @Endpoint(adminRoutes.listApplications)
  @UseGuards(AdminBearerGuard)
  async listApplications(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>) {
    const page = await this.admin.listApplications({ caller, ...pageQuery(query, PAGE_MAX) });
    return {
      applications: (page.applications ?? []).map(toApplicationJson),
      nextCursor: page.nextCursor ?? null,
      total: Number(page.total),
    };
  }

  @Endpoint(adminRoutes.listCampaigns)
  @UseGuards(AdminBearerGuard)
  async listCampaigns(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>): Promise<AdminCampaignPageJson> {
    const status = query['status'];
    if (
      status !== undefined &&
      status !== '' &&
      (typeof status !== 'string' || !(ADMIN_CAMPAIGN_STATUSES as readonly string[]).includes(status))
    ) {
      throw new BadRequestException('Invalid status');
    }
    const page = await this.admin.listCampaigns({
      caller,
      ...pageQuery(query, PAGE_MAX),
      ...(typeof status === 'string' && status !== '' ? { status } : {}),
    });
    return { campaigns: (page.campaigns ?? []).map(toAdminCampaignJson), nextCursor: page.nextCursor ?? null, total: Number(page.total) };
  }

  @Endpoint(adminRoutes.approveCampaign)
  @UseGuards(AdminBearerGuard)
  async approveCampaign(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() _body: object,
  ): Promise<AdminCampaignJson> {
    return toAdminCampaignJson(
      await this.admin.reviewCampaign({ caller, campaignId: uuidParam(id, 'Invalid campaign id'), decision: 'approve' }),
    );
  }

  @Endpoint(adminRoutes.rejectCampaign)
  @UseGuards(AdminBearerGuard)
  async rejectCampaign(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() body: RejectCampaignBody,
  ): Promise<AdminCampaignJson> {
    return toAdminCampaignJson(
      await this.admin.reviewCampaign({
        caller,
        campaignId: uuidParam(id, 'Invalid campaign id'),
        decision: 'reject',
        ...(body.reason !== undefined ? { reason: body.reason } : {}),
      }),
    );
  }

  @Endpoint(adminRoutes.audit)
  @UseGuards(AdminBearerGuard)
  async audit(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>) {
    return toAuditPageJson(await this.admin.listAudit({ caller, ...pageQuery(query, PAGE_MAX) }));
  }

  private async moderate(caller: adminV1.AdminCaller, submissionId: string, action: string, reason?: string): Promise<AdminSubmissionJson> {
    return toAdminSubmissionJson(await this.admin.moderate({ caller, submissionId, action, ...(reason !== undefined ? { reason } : {}) }));
  }
}

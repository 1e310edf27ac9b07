import { Controller, Inject, Param, Query, Req, UseGuards } from '@nestjs/common';
import type { adminV1 } from '@clipit/contracts';
import type { FastifyRequest } from 'fastify';
import { ADMIN_CLIENT, type AdminClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { RateLimitedError } from '../http/http-errors.js';
import { pageQuery } from '../http/paging.js';
import { AdminArea, PAGE_MAX } from './admin-area.service.js';
import { AdminBearerGuard, AdminCaller } from './admin-bearer.guard.js';
import { adminRoutes } from './admin.routes.js';
import { toEarningHoldJson, type EarningHoldJson, type HoldDecisionBody } from './earning-holds.schemas.js';
import { uuidParam } from '../http/path-params.js';
import {
  toAdminSubmissionJson,
  toApplicationJson,
  toAuditPageJson,
  toPlaceholderJson,
  toSystemMetricsJson,
  type AdminCampaignJson,
  type AdminCampaignPageJson,
  type AdminSubmissionJson,
  type AdminSubmissionPageJson,
  type CreatePlaceholderBody,
  type PlaceholderStreamerJson,
  type RejectBody,
  type RejectCampaignBody,
  type SystemMetricsJson,
  type VerifyPasswordBody,
} from './admin.schemas.js';

/**
 * The admin area's routes (spec 02 §2.4, §7; ADR 0020): each is one call to the admin service, which
 * checks the token, carries the command to its owner and audits it.
 */
@Controller()
export class AdminController {
  constructor(
    @Inject(ADMIN_CLIENT) private readonly admin: AdminClient,
    private readonly area: AdminArea,
  ) {}

  @Endpoint(adminRoutes.verifyPassword)
  async verifyPassword(@ValidBody() body: VerifyPasswordBody, @Req() req: FastifyRequest): Promise<{ token: string; expiresAt: string }> {
    const answer = await this.admin.verifyPassword({ password: body.password, clientIp: req.ip });
    if (answer.retryAfterSeconds) throw new RateLimitedError(answer.retryAfterSeconds);
    if (!answer.token || !answer.expiresAt) throw new Error('the admin service answered without a token');
    return { token: answer.token, expiresAt: answer.expiresAt };
  }

  @Endpoint(adminRoutes.listSubmissions)
  @UseGuards(AdminBearerGuard)
  listSubmissions(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>): Promise<AdminSubmissionPageJson> {
    return this.area.listSubmissions(caller, query);
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
  createPlaceholder(
    @AdminCaller() caller: adminV1.AdminCaller,
    @ValidBody() body: CreatePlaceholderBody,
  ): Promise<PlaceholderStreamerJson> {
    return this.area.createPlaceholder(caller, body);
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
  listCampaigns(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>): Promise<AdminCampaignPageJson> {
    return this.area.listCampaigns(caller, query);
  }

  @Endpoint(adminRoutes.approveCampaign)
  @UseGuards(AdminBearerGuard)
  approveCampaign(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() _body: object,
  ): Promise<AdminCampaignJson> {
    return this.area.reviewCampaign(caller, id, 'approve');
  }

  @Endpoint(adminRoutes.rejectCampaign)
  @UseGuards(AdminBearerGuard)
  rejectCampaign(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() body: RejectCampaignBody,
  ): Promise<AdminCampaignJson> {
    return this.area.reviewCampaign(caller, id, 'reject', body.reason);
  }

  @Endpoint(adminRoutes.releaseEarning)
  @UseGuards(AdminBearerGuard)
  releaseEarning(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() body: HoldDecisionBody,
  ): Promise<EarningHoldJson> {
    return this.decideHold(caller, id, 'release', body.reason);
  }

  @Endpoint(adminRoutes.voidEarning)
  @UseGuards(AdminBearerGuard)
  voidEarning(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() body: HoldDecisionBody,
  ): Promise<EarningHoldJson> {
    return this.decideHold(caller, id, 'void', body.reason);
  }

  @Endpoint(adminRoutes.audit)
  @UseGuards(AdminBearerGuard)
  async audit(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>) {
    return toAuditPageJson(await this.admin.listAudit({ caller, ...pageQuery(query, PAGE_MAX) }));
  }

  @Endpoint(adminRoutes.systemMetrics)
  @UseGuards(AdminBearerGuard)
  async systemMetrics(@AdminCaller() caller: adminV1.AdminCaller): Promise<SystemMetricsJson> {
    return toSystemMetricsJson(await this.admin.getSystemMetrics({ caller }));
  }

  private async decideHold(
    caller: adminV1.AdminCaller,
    id: string,
    decision: 'release' | 'void',
    reason: string,
  ): Promise<EarningHoldJson> {
    const earningId = uuidParam(id, 'Invalid earning id');
    return toEarningHoldJson(await this.admin.decideEarningHold({ caller, earningId, decision, reason }))!;
  }

  private async moderate(caller: adminV1.AdminCaller, submissionId: string, action: string, reason?: string): Promise<AdminSubmissionJson> {
    return toAdminSubmissionJson(await this.admin.moderate({ caller, submissionId, action, ...(reason !== undefined ? { reason } : {}) }));
  }
}

import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { adminV1 } from '@clipit/contracts';
import { ADMIN_CLIENT, type AdminClient } from '../clients.js';
import { pageQuery } from '../http/paging.js';
import { queueQuery } from './queue-query.js';
import { uuidParam } from '../http/path-params.js';
import {
  ADMIN_CAMPAIGN_STATUSES,
  toAdminCampaignJson,
  toAdminSubmissionJson,
  toPlaceholderJson,
  type AdminCampaignJson,
  type AdminCampaignPageJson,
  type AdminSubmissionPageJson,
  type CreatePlaceholderBody,
  type PlaceholderStreamerJson,
} from './admin.schemas.js';

export const PAGE_MAX = 200;

/** The admin area's lists and commands whose request or answer the gateway shapes; the admin service decides. */
@Injectable()
export class AdminArea {
  constructor(@Inject(ADMIN_CLIENT) private readonly admin: AdminClient) {}

  async listSubmissions(caller: adminV1.AdminCaller, query: Record<string, unknown>): Promise<AdminSubmissionPageJson> {
    const page = await this.admin.listSubmissions({ caller, ...pageQuery(query, PAGE_MAX), ...queueQuery(query) });
    return {
      submissions: (page.submissions ?? []).map(toAdminSubmissionJson),
      nextCursor: page.nextCursor ?? null,
      total: Number(page.total),
      createdLast7Days: Number(page.createdPastWeek),
    };
  }

  async createPlaceholder(caller: adminV1.AdminCaller, body: CreatePlaceholderBody): Promise<PlaceholderStreamerJson> {
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

  async listCampaigns(caller: adminV1.AdminCaller, query: Record<string, unknown>): Promise<AdminCampaignPageJson> {
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

  async reviewCampaign(
    caller: adminV1.AdminCaller,
    id: string,
    decision: 'approve' | 'reject',
    reason?: string,
  ): Promise<AdminCampaignJson> {
    return toAdminCampaignJson(
      await this.admin.reviewCampaign({
        caller,
        campaignId: uuidParam(id, 'Invalid campaign id'),
        decision,
        ...(reason !== undefined ? { reason } : {}),
      }),
    );
  }
}

import type { adminV1 } from '@clipit/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { ownerFailure } from './owner-failure.js';

/** The Job Applications tab (spec 02 §2.4): read-only, owned by the campaigns service. */
@Injectable()
export class ApplicationsService {
  constructor(@Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient) {}

  async list(request: { limit?: number | undefined; cursor?: string | undefined }): Promise<adminV1.ApplicationPage> {
    try {
      const page = await this.campaigns.listApplications({ limit: request.limit, cursor: request.cursor });
      return {
        applications: (page.applications ?? []).map((a) => ({ ...a })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        total: Number(page.total ?? 0),
      };
    } catch (err) {
      throw ownerFailure('campaigns', err);
    }
  }
}

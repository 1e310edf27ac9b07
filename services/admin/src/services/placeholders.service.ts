import type { adminV1 } from '@clipit/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { toAdminPlaceholder } from '../domain/admin-views.js';
import { auditResultOf, ownerFailure } from './owner-failure.js';
import { AuditService } from './audit.service.js';

/** The Placeholder Streamers tab (spec 02 §2.4, §5): identity owns the profiles and their rules. */
@Injectable()
export class PlaceholdersService {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<adminV1.ListPlaceholderStreamersResponse> {
    try {
      const { placeholders } = await this.identity.listPlaceholderStreamers({});
      return { placeholders: (placeholders ?? []).map(toAdminPlaceholder) };
    } catch (err) {
      throw ownerFailure('identity', err);
    }
  }

  async create(request: adminV1.CreatePlaceholderStreamerRequest, actor: string): Promise<adminV1.PlaceholderStreamer> {
    const clientIp = request.caller?.clientIp;
    const target = `@${request.twitterUsername}`;
    try {
      const created = await this.identity.createPlaceholderStreamer({
        displayName: request.displayName,
        twitterUsername: request.twitterUsername,
        profileImageUrl: request.profileImageUrl,
        bannerImageUrl: request.bannerImageUrl,
        streamerMultiplier: request.streamerMultiplier,
      });
      await this.audit.record({
        action: 'create-placeholder-streamer',
        target: `placeholder ${created.id} (@${created.twitterUsername})`,
        result: 'ok',
        detail: `multiplier ${created.streamerMultiplier}`,
        actor,
        clientIp,
      });
      return toAdminPlaceholder(created);
    } catch (err) {
      const failure = ownerFailure('identity', err);
      await this.audit.record({ action: 'create-placeholder-streamer', target, ...auditResultOf(failure), actor, clientIp });
      throw failure;
    }
  }
}

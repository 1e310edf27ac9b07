import type { identityV1 } from '@clipit/contracts';
import { CONFIG, conflict, Outbox, uniqueViolation, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { IdentityConfig } from '../config.js';
import { generateClaimCode } from '../domain/claim-code.js';
import { messages } from '../domain/messages.js';
import { newPlaceholder } from '../domain/user.factory.js';
import { toPlaceholderMessage, toUserSnapshot } from '../domain/user.mapper.js';
import { parsePlaceholder } from '../domain/validation.js';
import { UserRepository } from '../repositories/user.repository.js';

const CLAIM_CODE_ATTEMPTS = 5;

/** Streamer profiles an admin prepares before the streamer has an account; claimed at sign-up. */
@Injectable()
export class PlaceholderService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  async create(req: identityV1.CreatePlaceholderStreamerRequest): Promise<identityV1.PlaceholderStreamer> {
    const input = parsePlaceholder(req, this.config.MEDIA_PUBLIC_BASE_URL);
    if (
      (await this.users.accountHandleExists(input.twitterUsername)) ||
      (await this.users.unclaimedPlaceholderHandleExists(input.twitterUsername))
    ) {
      throw conflict(messages.handleTaken);
    }
    // 31^8 codes make a collision rare; when one happens the whole insert is simply tried again.
    for (let attempt = 1; ; attempt += 1) {
      const placeholder = newPlaceholder(input, generateClaimCode(), new Date());
      try {
        await this.transactions.run(async (tx) => {
          await this.users.insert(tx, placeholder);
          await this.outbox.append(tx, 'user.registered', { user: toUserSnapshot(placeholder), claimedPlaceholderId: null });
        });
        return toPlaceholderMessage(placeholder);
      } catch (err) {
        const constraint = uniqueViolation(err);
        if (constraint === 'users_claim_code_key' && attempt < CLAIM_CODE_ATTEMPTS) continue;
        if (constraint === 'users_twitter_username_placeholder_key') throw conflict(messages.handleTaken);
        throw err;
      }
    }
  }

  async list(): Promise<identityV1.ListPlaceholderStreamersResponse> {
    const placeholders = await this.users.listPlaceholders();
    const claimerIds = placeholders.flatMap((p) => (p.claimedBy ? [p.claimedBy] : []));
    const claimers = new Map((await this.users.getByIds(claimerIds)).map((u) => [u.id, u]));
    return { placeholders: placeholders.map((p) => toPlaceholderMessage(p, p.claimedBy ? claimers.get(p.claimedBy) : null)) };
  }
}

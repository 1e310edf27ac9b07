import { randomUUID } from 'node:crypto';
import type { identityV1 } from '@clipit/contracts';
import { isUuid, notFound, Outbox, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { messages } from '../domain/messages.js';
import { applyTokenPatch, assertOwner, assertStreamer, changedTokenFields, newToken, parseNewToken } from '../domain/token.js';
import { toTokenMessage, toTokenSnapshot } from '../domain/user.mapper.js';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity } from '../entities/user.entity.js';
import { TokenRepository } from '../repositories/token.repository.js';
import { UserRepository } from '../repositories/user.repository.js';

export const TOKEN_NOT_FOUND = 'Token not found';

/**
 * Streamer tokens (spec 02 §5 "Token"): the active ones every clip can be tagged with, and a streamer
 * managing their own. Each change commits its `token.changed` (the whole new token) in the same transaction.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
  ) {}

  async listTokens(): Promise<identityV1.ListTokensResponse> {
    return { tokens: (await this.tokens.listActive()).map(toTokenMessage) };
  }

  async getToken(id: string): Promise<identityV1.Token> {
    const token = await this.tokens.findById(id);
    if (!token) throw notFound(TOKEN_NOT_FOUND);
    return toTokenMessage(token);
  }

  /** All of the caller's tokens, active or not (streamers only). */
  async listMyTokens(req: identityV1.ListMyTokensRequest): Promise<identityV1.ListTokensResponse> {
    assertStreamer(await this.caller(req.userId));
    return { tokens: (await this.tokens.listByStreamer(req.userId)).map(toTokenMessage) };
  }

  async createToken(req: identityV1.CreateTokenRequest): Promise<identityV1.Token> {
    assertStreamer(await this.caller(req.userId));
    const draft = parseNewToken(req);
    return this.transactions.run(async (tx) => {
      const token = newToken(req.userId, draft, new Date(), randomUUID());
      await this.tokens.insert(tx, token);
      await this.outbox.append(tx, 'token.changed', { token: toTokenSnapshot(token) });
      return toTokenMessage(token);
    });
  }

  /** Only the fields given change; nothing really changed: no write and no event. */
  async updateToken(req: identityV1.UpdateTokenRequest): Promise<identityV1.Token> {
    assertStreamer(await this.caller(req.userId));
    return this.transactions.run(async (tx: EntityManager) => {
      const token = await this.tokens.findByIdForUpdate(tx, req.id);
      if (!token) throw notFound(TOKEN_NOT_FOUND);
      assertOwner(token, req.userId);
      const draft = applyTokenPatch(token, req);
      const changed = changedTokenFields(token, draft);
      if (changed.length === 0) return toTokenMessage(token);
      const values: Partial<TokenEntity> = { updatedAt: new Date() };
      for (const field of changed) Object.assign(values, { [field]: draft[field] });
      await this.tokens.update(tx, token.id, values);
      const updated: TokenEntity = { ...token, ...values };
      await this.outbox.append(tx, 'token.changed', { token: toTokenSnapshot(updated) });
      return toTokenMessage(updated);
    });
  }

  /** The signed-in caller the gateway names; NOT_FOUND for an unknown or malformed id. */
  private async caller(userId: string): Promise<UserEntity> {
    const user = isUuid(userId) ? await this.users.getById(userId) : null;
    if (!user) throw notFound(messages.userNotFound);
    return user;
  }
}

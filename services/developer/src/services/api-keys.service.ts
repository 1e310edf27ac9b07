import type { developerV1 } from '@clipit/contracts';
import {
  API_KEY_MESSAGES,
  API_KEYS_PER_USER_MAX,
  checkApiKeyExpiry,
  checkApiKeyName,
  checkApiKeyScopes,
  isWellFormedApiKey,
} from '@clipit/field-rules';
import { failedPrecondition, invalid, notFound, Outbox, TransactionRunner, unauthenticated, uuidOrUndefined } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { apiKeyHash, newApiKey, toApiKeyMessage } from '../domain/api-key.js';
import { checked, userIdOf as userId } from '../domain/checks.js';
import { ApiKeyRepository } from '../repositories/api-key.repository.js';

/**
 * API keys of the versioned read API (ADR 0053): made for a signed-in user and told once, listed without
 * the key, revoked for every gateway replica (apikey.revoked), and checked by the gateway on each request
 * its short cache cannot answer. The rules and words are @clipit/field-rules' (api-key.ts).
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Makes a key. The user's live keys are counted under a lock on the user in the transaction that adds
   * the new one, so creates at once cannot take them past API_KEYS_PER_USER_MAX.
   */
  async create(request: developerV1.CreateKeyRequest, now = new Date()): Promise<developerV1.CreatedKey> {
    const owner = userId(request.userId);
    const { name } = checked(checkApiKeyName(request.name));
    const { scopes } = checked(checkApiKeyScopes(request.scopes));
    const { expiresAt } = checked(checkApiKeyExpiry(request.expiresAt, now));
    const made = newApiKey();
    return this.transactions.run(async (tx) => {
      await this.keys.lockUser(tx, owner);
      if ((await this.keys.countLive(tx, owner, now)) >= API_KEYS_PER_USER_MAX) throw failedPrecondition(API_KEY_MESSAGES.tooManyKeys);
      const row = await this.keys.insert(tx, {
        userId: owner,
        name,
        prefix: made.prefix,
        hash: made.hash,
        scopes,
        expiresAt,
        createdAt: now,
      });
      return { key: toApiKeyMessage(row), secret: made.secret };
    });
  }

  /** The user's keys not revoked, newest first; expired ones too, with their expiry. */
  async list(request: developerV1.ListKeysRequest): Promise<developerV1.KeyList> {
    const rows = await this.keys.listForUser(userId(request.userId));
    return { keys: rows.map(toApiKeyMessage) };
  }

  /**
   * Revokes one of the user's keys and tells every gateway replica (apikey.revoked, in the same
   * transaction). Someone else's key, an unknown one and one revoked before are all 'not found', so the
   * answer says nothing of keys that are not the caller's; a second revoke publishes nothing.
   */
  async revoke(request: developerV1.RevokeKeyRequest, now = new Date()): Promise<developerV1.RevokeKeyResponse> {
    const owner = userId(request.userId);
    const keyId = uuidOrUndefined(request.keyId);
    if (!keyId) throw invalid(API_KEY_MESSAGES.invalidKeyId);
    await this.transactions.run(async (tx) => {
      if (!(await this.keys.revoke(tx, owner, keyId, now))) throw notFound(API_KEY_MESSAGES.keyNotFound);
      await this.outbox.append(tx, 'apikey.revoked', { keyId, userId: owner, at: now.toISOString() });
    });
    return {};
  }

  /**
   * Who a key belongs to and what it may read. A key of the wrong shape or checksum is refused without a
   * lookup; an unknown, revoked or expired one with the same words. Notes the use at most once a minute.
   */
  async authenticate(request: developerV1.AuthenticateKeyRequest, now = new Date()): Promise<developerV1.KeyPrincipal> {
    if (!isWellFormedApiKey(request.key)) throw unauthenticated(API_KEY_MESSAGES.keyRefused);
    const key = await this.keys.findLiveByHash(apiKeyHash(request.key), now);
    if (!key) throw unauthenticated(API_KEY_MESSAGES.keyRefused);
    await this.keys.noteUse(key.id, now);
    return {
      keyId: key.id,
      userId: key.userId,
      scopes: key.scopes,
      ...(key.expiresAt ? { expiresAt: key.expiresAt.toISOString() } : {}),
    };
  }
}

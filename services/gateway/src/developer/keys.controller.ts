import { API_KEY_MESSAGES } from '@clipit/field-rules';
import { Controller, Inject, Param, UseGuards } from '@nestjs/common';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { DEVELOPER_CLIENT, type DeveloperClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { uuidParam } from '../http/path-params.js';
import { keyRoutes } from './keys.routes.js';
import { toApiKeyJson, toCreatedKeyJson, type ApiKeyListJson, type CreateKeyBody, type CreatedKeyJson } from './keys.schemas.js';

/** API keys (ADR 0053): the signed-in user's own, owned by developer, which checks every rule. */
@Controller()
export class KeysController {
  constructor(@Inject(DEVELOPER_CLIENT) private readonly developer: DeveloperClient) {}

  @Endpoint(keyRoutes.create)
  @UseGuards(SessionGuard)
  async create(@CurrentSession() session: SessionPrincipal, @ValidBody() body: CreateKeyBody): Promise<CreatedKeyJson> {
    const { name, scopes, expiresAt } = body;
    const request = { userId: session.user.id, name: name ?? '', scopes: scopes ?? [], ...(expiresAt ? { expiresAt } : {}) };
    return toCreatedKeyJson(await this.developer.createKey(request));
  }

  @Endpoint(keyRoutes.list)
  @UseGuards(SessionGuard)
  async list(@CurrentSession() session: SessionPrincipal): Promise<ApiKeyListJson> {
    const { keys } = await this.developer.listKeys({ userId: session.user.id });
    return { keys: (keys ?? []).map(toApiKeyJson) };
  }

  @Endpoint(keyRoutes.revoke)
  @UseGuards(SessionGuard)
  async revoke(@CurrentSession() session: SessionPrincipal, @Param('id') id: string): Promise<void> {
    await this.developer.revokeKey({ userId: session.user.id, keyId: uuidParam(id, API_KEY_MESSAGES.invalidKeyId) });
  }
}

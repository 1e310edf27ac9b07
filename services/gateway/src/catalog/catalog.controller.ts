import { Controller, Inject } from '@nestjs/common';
import { Endpoint } from '../http/endpoint.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { catalogRoutes } from './catalog.routes.js';
import { toStreamerList, toTokenList, type StreamerItem, type TokenItem } from './catalog.schemas.js';

@Controller()
export class CatalogController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient) {}

  @Endpoint(catalogRoutes.tokens)
  async tokens(): Promise<TokenItem[]> {
    return toTokenList((await this.identity.listTokens({})).tokens ?? []);
  }

  @Endpoint(catalogRoutes.streamers)
  async streamers(): Promise<StreamerItem[]> {
    return toStreamerList((await this.identity.listStreamers({})).streamers ?? []);
  }
}

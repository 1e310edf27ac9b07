import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { BadRequestException, Controller, ForbiddenException, Inject, Param, UseGuards } from '@nestjs/common';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { tokenRoutes } from './tokens.routes.js';
import {
  checkedCreate,
  checkedUpdate,
  toMyTokenJson,
  type CreateTokenBody,
  type MyTokenJson,
  type UpdateTokenBody,
} from './tokens.schemas.js';

/**
 * A streamer's own tokens: each route is one call to identity, which owns tokens and their rules (streamers
 * only, the owner only, checkToken) and publishes each change. The role and the shared rules are checked
 * here first so a refused request costs no call.
 */
@Controller()
export class TokensController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient) {}

  @Endpoint(tokenRoutes.myTokens)
  @UseGuards(SessionGuard)
  async myTokens(@CurrentSession() session: SessionPrincipal): Promise<MyTokenJson[]> {
    assertStreamer(session);
    return ((await this.identity.listMyTokens({ userId: session.user.id })).tokens ?? []).map(toMyTokenJson);
  }

  @Endpoint(tokenRoutes.createToken)
  @UseGuards(SessionGuard)
  async createToken(@CurrentSession() session: SessionPrincipal, @ValidBody() body: CreateTokenBody): Promise<MyTokenJson> {
    assertStreamer(session);
    const checked = checkedCreate(session.user.id, body);
    if ('error' in checked) throw new BadRequestException(checked.error);
    return toMyTokenJson(await this.identity.createToken(checked.request));
  }

  @Endpoint(tokenRoutes.updateToken)
  @UseGuards(SessionGuard)
  async updateToken(
    @CurrentSession() session: SessionPrincipal,
    @Param('id') id: string,
    @ValidBody() body: UpdateTokenBody,
  ): Promise<MyTokenJson> {
    return toMyTokenJson(await this.identity.updateToken(updateRequest(session, id, body)));
  }
}

function assertStreamer(session: SessionPrincipal): void {
  if (session.user.role !== 'streamer') throw new ForbiddenException(TOKEN_MESSAGES.streamersOnly);
}

/** The streamer's edit as identity takes it, its rules checked first. */
function updateRequest(session: SessionPrincipal, id: string, body: UpdateTokenBody) {
  assertStreamer(session);
  const checked = checkedUpdate(session.user.id, id, body);
  if ('error' in checked) throw new BadRequestException(checked.error);
  return checked.request;
}

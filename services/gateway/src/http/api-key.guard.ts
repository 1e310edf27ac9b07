import { API_KEY_MESSAGES } from '@clipit/field-rules';
import { createParamDecorator, ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { endpointOf } from './endpoint-def.js';
import { ApiKeyAuthenticator, ApiKeyRefused, type ApiKeyPrincipal } from './api-key-authenticator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's principal on an /api/v1 route, set by ApiKeyGuard. */
    apiKey?: ApiKeyPrincipal;
  }
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/**
 * The versioned read API's one way in (ADR 0053): `Authorization: Bearer clipit_…` with the scope the
 * route names (its declaration's `apiKey`). A session cookie counts for nothing here, so a request
 * with a cookie and no key is 401, and a key never opens a cookie route (those read the cookie alone).
 * `Endpoint()` puts this guard on every route that names a scope.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scope = endpointOf(context.getHandler())?.apiKey;
    if (!scope) throw new Error(`ApiKeyGuard on ${context.getClass().name}.${context.getHandler().name} needs an @Endpoint naming apiKey`);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new ApiKeyRefused(API_KEY_MESSAGES.keyMissing);
    const principal = await this.keys.authenticate(match[1]!);
    if (!principal.scopes.includes(scope)) throw new ForbiddenException(API_KEY_MESSAGES.scopeMissing(scope));
    request.apiKey = principal;
    return true;
  }
}

/** The principal ApiKeyGuard put on the request. */
export const CurrentApiKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): ApiKeyPrincipal => {
  const principal = ctx.switchToHttp().getRequest<FastifyRequest>().apiKey;
  if (!principal) throw new Error('@CurrentApiKey() needs ApiKeyGuard');
  return principal;
});

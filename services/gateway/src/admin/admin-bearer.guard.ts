import { createParamDecorator, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { adminV1 } from '@clipit/contracts';
import type { FastifyRequest } from 'fastify';
import { ADMIN_TOKEN_MISSING } from '../http/messages.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin token of `Authorization: Bearer <token>`, set by AdminBearerGuard. */
    adminToken?: string;
  }
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/**
 * Admin routes (ADR 0020): a request needs `Authorization: Bearer <token>`, or it is 401 here without
 * reaching a service. The admin service checks the token itself (signature, expiry) on every call, so
 * the gateway holds no admin secret.
 */
@Injectable()
export class AdminBearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new UnauthorizedException(ADMIN_TOKEN_MISSING);
    request.adminToken = match[1];
    return true;
  }
}

/** Who calls an admin route: the token and the client's address, as the admin service's requests carry them. */
export const AdminCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): adminV1.AdminCaller => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return { token: request.adminToken ?? '', clientIp: request.ip };
});

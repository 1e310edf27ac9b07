import {
  applyDecorators,
  createParamDecorator,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  UnsupportedMediaTypeException,
  UseGuards,
  UseInterceptors,
  type ExecutionContext,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { EndpointMeta, endpointOf, parseBody, type EndpointDef } from './endpoint-def.js';
import { UNSUPPORTED_CONTENT_TYPE } from './messages.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { RateLimitGuard } from './rate-limit.guard.js';

export * from './endpoint-def.js';

const ROUTE = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } as const;

/** Fastify route config the request pipeline reads before any handler runs (`request.routeOptions.config`). */
export interface EndpointRouteConfig {
  cookieless?: boolean;
  publicRead?: EndpointDef['publicRead'];
}

export function Endpoint(def: EndpointDef): MethodDecorator {
  const config: EndpointRouteConfig = {
    ...(def.cookieless ? { cookieless: true } : {}),
    ...(def.publicRead ? { publicRead: def.publicRead } : {}),
  };
  const decorators = [EndpointMeta(def), ROUTE[def.method](def.path), HttpCode(def.status ?? 200), RouteConfig(config)];
  // A route that names a key scope cannot forget its guard: declaring the scope is what puts it there.
  if (def.apiKey) decorators.push(UseGuards(ApiKeyGuard));
  // Last of the route's interceptors (decorators apply bottom-up, and @Endpoint sits on top): after its
  // guards and its multipart interceptor.
  if (def.limit) decorators.push(UseInterceptors(RateLimitGuard));
  return applyDecorators(...decorators);
}

/** The request body, validated with the schema of the route's `@Endpoint`. */
export const ValidBody = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const def = endpointOf(ctx.getHandler());
  if (!def?.body) throw new Error(`@ValidBody() on ${ctx.getClass().name}.${ctx.getHandler().name} needs an @Endpoint with a body schema`);
  const request = ctx.switchToHttp().getRequest<{ body?: unknown; isMultipart?: () => boolean }>();
  // The multipart parser accepts any route's form without reading it; only upload routes read one.
  if (!def.multipartFile && request.isMultipart?.()) throw new UnsupportedMediaTypeException(UNSUPPORTED_CONTENT_TYPE);
  return parseBody(def.body, request.body);
});

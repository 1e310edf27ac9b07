import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../auth/session-cookie.js';
import type { EndpointRouteConfig } from '../http/endpoint.js';
import { readKey, sendJson, type PublicReadCache } from './read-cache.js';

const sessionCookie = `${SESSION_COOKIE}=`;

/**
 * Answers a public read from the read cache in the request hook, before Nest's route pipeline runs:
 * a cached answer then costs little more than writing its bytes. Installed after the request pipeline's
 * hooks (correlation id, security headers, the cross-site check), so those still apply, and the
 * response hooks (the request log, the latency histogram) still run. A miss, or a request the answer
 * depends on the user for, goes on to the route.
 */
export function installPublicReadFastPath(fastify: FastifyInstance, cache: PublicReadCache): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const read = (request.routeOptions.config as EndpointRouteConfig | undefined)?.publicRead;
    if (!read || request.method !== 'GET' || (read.visitorOnly && request.headers.cookie?.includes(sessionCookie))) {
      done();
      return;
    }
    const hit = cache.peek(readKey(request, read.query));
    if (!hit) {
      done();
      return;
    }
    sendJson(request, reply, hit, true);
  });
}

import type { Server } from 'node:http';
import process from 'node:process';
import { ROOT_CONTEXT, context, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed, suppressTracing } from '@opentelemetry/core';

// Where an HTTP server's connections run: no span, tracing suppressed.
const UNTRACED = suppressTracing(ROOT_CONTEXT);
const LISTENS_UNTRACED = Symbol('clipit.listensUntraced');

/**
 * Makes every HTTP server listen with tracing suppressed. A connection's events run in the context its server
 * listened in, so everything a request does is untraced (its body's chunks, its response's finish, whatever
 * they go on to call) unless the HTTP instrumentation gave the request a span and bound it there, which it does
 * only for a request the edge keeps (sampling.ts). A request it drops then costs no context of its own. Only
 * node:http and node:https servers: gRPC's server reads its caller's context itself.
 */
export function listenUntraced(): void {
  for (const id of ['node:http', 'node:https'] as const) {
    const prototype = process.getBuiltinModule(id).Server.prototype as unknown as { listen: (...args: unknown[]) => unknown };
    const listen = prototype.listen;
    prototype.listen = function listenUntraced(this: Server, ...args: unknown[]) {
      (this as unknown as Record<symbol, boolean>)[LISTENS_UNTRACED] = true;
      return context.with(UNTRACED, () => listen.apply(this, args));
    };
  }
}

/**
 * The AsyncLocalStorage context manager, but binding a request or response of a server that listens untraced
 * to an untraced context is skipped: its events fire untraced already. That is what the HTTP instrumentation
 * does for every request the edge drops, and the binding (each listener wrapped) was most of such a request's
 * cost.
 */
export class UntracedServerContextManager extends AsyncLocalStorageContextManager {
  override bind<T>(ctx: Context, target: T): T {
    if (isTracingSuppressed(ctx) && fromUntracedServer(target)) return target;
    return super.bind(ctx, target);
  }
}

function fromUntracedServer(target: unknown): boolean {
  // IncomingMessage and ServerResponse hold their socket; a server's socket holds its server.
  const socket = (target as { socket?: { server?: Record<symbol, unknown> } | null } | null | undefined)?.socket;
  return socket?.server?.[LISTENS_UNTRACED] === true;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header (HTTP) and metadata key (gRPC) that carry the correlation id between services. */
export const CORRELATION_HEADER = 'x-correlation-id';

interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with the correlation id visible to logs, gRPC calls and events it causes. */
export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T): T {
  return storage.run({ correlationId: sanitizeCorrelationId(correlationId) ?? randomUUID() }, fn);
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** The current id, or a fresh one for work that starts outside any request (timers, relays). */
export function correlationIdOrNew(): string {
  return currentCorrelationId() ?? randomUUID();
}

/** Accepts ids from outside only when they look like ids, so logs cannot be forged or bloated. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && /^[\w.:-]{1,128}$/.test(v) ? v : undefined;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ReadYourWrites } from './read-your-writes.js';

/** The header (HTTP) and metadata key (gRPC) that carry the correlation id between services. */
export const CORRELATION_HEADER = 'x-correlation-id';

/** What the request being served carries through every await it causes. */
interface RequestContext {
  correlationId: string;
  /**
   * When the caller stops waiting for the answer (epoch ms, the `Date.now()` clock): the incoming gRPC
   * call's deadline, when it has one. Work that may not be done in time (a password hash, ADR 0044)
   * refuses at once instead of finishing for nobody.
   */
  deadline?: number;
  /** The request's reads that must show its caller's writes, and the events its own writes committed (ADR 0043). */
  readYourWrites?: ReadYourWrites;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with the correlation id visible to logs, gRPC calls and events it causes. */
export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T): T {
  return runWithRequestContext({ correlationId }, fn);
}

/** Runs `fn` as the request `context` describes: its correlation id, and its caller's deadline when it has one. */
export function runWithRequestContext<T>(
  context: { correlationId?: string | undefined; deadline?: number | undefined; readYourWrites?: ReadYourWrites | undefined },
  fn: () => T,
): T {
  const store: RequestContext = { correlationId: sanitizeCorrelationId(context.correlationId) ?? randomUUID() };
  if (context.deadline !== undefined && Number.isFinite(context.deadline)) store.deadline = context.deadline;
  if (context.readYourWrites) store.readYourWrites = context.readYourWrites;
  return storage.run(store, fn);
}

/** The read-your-writes state of the request being served (ADR 0043), when it has one. */
export function currentReadYourWrites(): ReadYourWrites | undefined {
  return storage.getStore()?.readYourWrites;
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** The current id, or a fresh one for work that starts outside any request (timers, relays). */
export function correlationIdOrNew(): string {
  return currentCorrelationId() ?? randomUUID();
}

/** When the caller of the request being served stops waiting (epoch ms), or undefined when it set no deadline. */
export function currentDeadline(): number | undefined {
  return storage.getStore()?.deadline;
}

/**
 * The ms the caller of the request being served still waits (negative once its deadline has passed), or
 * undefined outside a request or when the caller set no deadline. `now` is the `Date.now()` clock.
 */
export function remainingDeadlineMs(now: number = Date.now()): number | undefined {
  const deadline = currentDeadline();
  return deadline === undefined ? undefined : deadline - now;
}

/**
 * A gRPC deadline (grpc-js `ServerSurfaceCall.getDeadline()`: a Date, epoch ms, or Infinity when the caller
 * set none) as epoch ms, or undefined when there is none.
 */
export function deadlineMsOf(deadline: unknown): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
}

/** Accepts ids from outside only when they look like ids, so logs cannot be forged or bloated. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && /^[\w.:-]{1,128}$/.test(v) ? v : undefined;
}

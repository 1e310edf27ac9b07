import { isEventType } from '@clipit/contracts';

/**
 * Read-your-writes (ADR 0043): a write reports the events it committed; the writer's next reads carry them,
 * and a service answering such a read first waits (bounded) until its own event consumer has applied those
 * of them it consumes. What travels between the gateway and the services, and what a request keeps.
 */

/** One event a write committed: its id (the inbox's key) and its type (which consumers apply it). */
export interface WrittenEvent {
  id: string;
  type: string;
}

/** A request's part in read-your-writes, kept in its request context (`currentReadYourWrites`). */
export interface ReadYourWrites {
  /** Events of the caller's earlier writes that this request's reads must show. */
  readonly after: readonly WrittenEvent[];
  /** When nobody waits for `after` any more (epoch ms): the request's start plus READ_AFTER_MAX_MS. */
  readonly waitUntil: number;
  /** Events this request's own writes committed, reported back to its caller. */
  readonly written: WrittenEvent[];
  /** A read of this request was answered before some of `after` had been applied (the wait ran out). */
  stale: boolean;
}

/** gRPC metadata a service answers with: the events the call committed (`id:type,id:type`). */
export const WRITTEN_METADATA = 'clipit-written';
/** gRPC metadata a read carries: the events it must show. */
export const AFTER_METADATA = 'clipit-after';
/** gRPC metadata a read carries: the ms it may still wait for them. */
export const AFTER_MS_METADATA = 'clipit-after-ms';
/** gRPC metadata a service answers with ('1') when it stopped waiting before every event was applied. */
export const STALE_METADATA = 'clipit-stale';
/** The bound on a read's wait for its writer's events, whatever the caller asks. */
export const READ_AFTER_MAX_MS = 250;
/** The most events a request may name: the newest are kept. */
export const MAX_PENDING_WRITES = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh state for a request: `after` to wait for until `waitUntil`, nothing written yet. */
export function readYourWrites(after: readonly WrittenEvent[], waitUntil: number): ReadYourWrites {
  return { after, waitUntil, written: [], stale: false };
}

/** `id:type` entries joined by commas, as the metadata carries them. */
export function formatEvents(events: readonly WrittenEvent[]): string {
  return events.map((e) => `${e.id}:${e.type}`).join(',');
}

/**
 * The events of a metadata value or header, each checked (a UUID and a known event type), doubles and
 * malformed entries dropped, the newest MAX_PENDING_WRITES kept. Anything else gives none.
 */
export function parseEvents(value: unknown): WrittenEvent[] {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text.length === 0 || text.length > 4096) return [];
  const events: WrittenEvent[] = [];
  for (const entry of text.split(',')) {
    const event = parseEventEntry(entry);
    if (event) addEvents(events, [event]);
  }
  return events.slice(-MAX_PENDING_WRITES);
}

/**
 * One `<event id>:<event type>[:<rest>]` entry: the event when the id is a UUID and the type a known one,
 * with what follows the type (the gateway's `until`) as `rest`; otherwise undefined.
 */
export function parseEventEntry(entry: string): (WrittenEvent & { rest: string | undefined }) | undefined {
  const [id, type, rest] = entry.trim().split(':');
  if (id === undefined || type === undefined || !UUID.test(id) || !isEventType(type)) return undefined;
  return { id, type, rest };
}

/** Adds `events` to `list`, each once. */
export function addEvents(list: WrittenEvent[], events: readonly WrittenEvent[]): void {
  for (const e of events) if (!list.some((known) => known.id === e.id)) list.push({ id: e.id, type: e.type });
}

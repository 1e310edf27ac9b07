import { eventTypes, isEventType, type EventData, type EventEnvelope, type EventType } from '@clipit/contracts';
import type { EntityManager } from 'typeorm';

/** What a handler gets: the checked event and the transaction its writes (and the inbox row) share. */
export type EventHandler<T extends EventType> = (event: EventEnvelope<T, EventData<T>>, tx: EntityManager) => Promise<void>;

/** A table typed over the event union: the compiler checks each handler against its event's data. */
export type HandlerTable<T extends EventType = EventType> = { [K in T]: EventHandler<K> };

export class HandlerRegistrationError extends Error {
  constructor(problems: string[]) {
    super(`Event handlers are not wired correctly:\n  - ${problems.join('\n  - ')}`);
    this.name = 'HandlerRegistrationError';
  }
}

/**
 * Collects handlers from anywhere in a service (a table, or decorated methods found at boot) and
 * checks at start-up that each subscribed type has exactly one handler and nothing else has any.
 */
export class HandlerRegistry {
  private readonly handlers = new Map<string, Array<{ handler: EventHandler<EventType>; origin: string }>>();

  on<T extends EventType>(type: T, handler: EventHandler<T>, origin = 'anonymous'): this {
    const list = this.handlers.get(type) ?? [];
    list.push({ handler: handler as unknown as EventHandler<EventType>, origin });
    this.handlers.set(type, list);
    return this;
  }

  addTable<T extends EventType>(table: HandlerTable<T>, origin = 'table'): this {
    for (const type of Object.keys(table) as T[]) this.on(type, table[type], origin);
    return this;
  }

  /** Throws naming every subscribed type with no handler or with several, and every stray handler. */
  validate(subscriptions: readonly string[]): Map<EventType, EventHandler<EventType>> {
    const problems: string[] = [];
    const subscribed = new Set(subscriptions);
    for (const type of subscribed) {
      if (!isEventType(type)) {
        problems.push(`subscribed to unknown event type "${type}" (known: ${eventTypes.join(', ')})`);
        continue;
      }
      const list = this.handlers.get(type) ?? [];
      if (list.length === 0) problems.push(`"${type}" is subscribed but has no handler`);
      if (list.length > 1)
        problems.push(`"${type}" has ${list.length} handlers (${list.map((h) => h.origin).join(', ')}); it must have one`);
    }
    for (const [type, list] of this.handlers) {
      if (!subscribed.has(type)) problems.push(`"${type}" has a handler (${list.map((h) => h.origin).join(', ')}) but is not subscribed`);
    }
    if (problems.length > 0) throw new HandlerRegistrationError(problems);
    return new Map([...subscribed].map((type) => [type as EventType, this.handlers.get(type)![0]!.handler]));
  }
}

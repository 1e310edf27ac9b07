import type { developerV1 } from '@clipit/contracts';
import type { DeliveryRow, EndpointRow } from './webhook-rows.js';

const iso = (d: Date | null | undefined): string | undefined => (d ? d.toISOString() : undefined);
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

/** An endpoint as its owner's list shows it: never its secrets; a lapsed overlap is not mentioned. */
export function toEndpointMessage(e: EndpointRow, now = new Date()): developerV1.Endpoint {
  return defined({
    id: e.id,
    url: e.url,
    events: e.events,
    createdAt: e.createdAt.toISOString(),
    disabledAt: iso(e.disabledAt),
    disabledReason: e.disabledReason ?? undefined,
    failingSince: iso(e.failingSince),
    previousSecretUntil: e.previousSecretUntil && e.previousSecretUntil > now ? e.previousSecretUntil.toISOString() : undefined,
    pendingDeliveries: e.pendingDeliveries,
  });
}

export function toDeliveryMessage(d: DeliveryRow): developerV1.Delivery {
  return defined({
    id: d.id,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode ?? undefined,
    lastError: d.lastError ?? undefined,
    latencyMs: d.latencyMs ?? undefined,
    responseExcerpt: d.responseExcerpt ?? undefined,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: iso(d.lastAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : undefined,
    payload: d.payload,
  });
}

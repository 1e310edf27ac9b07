import { z } from 'zod';

/** Every event on the bus travels in this envelope; `data` is checked against the type's own schema. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  source: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  data: z.unknown(),
});

export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  /** A fact in the past tense, e.g. `user.registered`. */
  type: TType;
  /** The service that owns the fact. */
  source: string;
  occurredAt: string;
  correlationId: string;
  data: TData;
}

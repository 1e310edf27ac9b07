// Webhook endpoints and deliveries as the repositories read them and the services use them.

/** An endpoint as stored (its secrets sealed). */
export interface EndpointRow {
  id: string;
  userId: string;
  url: string;
  events: string[];
  sealedSecret: string;
  previousSealedSecret: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  pendingDeliveries: number;
}

/** A delivery as stored. */
export interface DeliveryRow {
  id: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  payload: string;
  status: 'pending' | 'delivered';
  attempts: number;
  queuedAttempt: number;
  queuedAt: Date | null;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A delivery due to be tried now, with what its job needs of its endpoint. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  attempt: number;
  url: string;
  messageId: string;
  payload: string;
  sealedSecret: string;
  previousSealedSecret: string | null;
  previousSecretUntil: Date | null;
}

/** What one attempt told. */
export interface AttemptOutcome {
  attempt: number;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string;
  at: Date;
}

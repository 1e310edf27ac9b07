// What every channel of the kit's clients is told about its service (ADR 0054): balance each call over
// every address of the target, and try a call again on another replica only where the contract says a
// repeat is harmless.
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';

/**
 * The retry of a method whose proto allows it: three attempts, 50 ms then 100 ms apart (±20 % jitter, at
 * most 500 ms), on UNAVAILABLE only: the replica went away or refused before doing anything. The call's
 * deadline bounds all its attempts.
 */
export const GRPC_RETRY_POLICY = {
  maxAttempts: 3,
  initialBackoff: '0.05s',
  maxBackoff: '0.5s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE'],
} as const;

/**
 * Retries stop while many calls of the channel fail, so a failing backend is not sent twice the load:
 * each failure costs a token, each success gives back a tenth, and at half the tokens or fewer nothing is
 * retried. That is reached after 50 failures in a row, or when more than about one call in eleven fails
 * for a while. Not ADR 0054's 10 tokens: a replica killed under a load of 20 calls at a time failed 16 to
 * 20 of them at once, so 10 tokens stopped the very retries that should have saved them.
 */
export const GRPC_RETRY_THROTTLING = { maxTokens: 100, tokenRatio: 0.1 } as const;

/** The levels of `option idempotency_level` that let a call be sent again. */
const REPEATABLE = new Set(['NO_SIDE_EFFECTS', 'IDEMPOTENT']);

export interface GrpcServiceConfig {
  loadBalancingConfig: Array<{ round_robin: Record<string, never> }>;
  methodConfig: Array<{ name: Array<{ service: string; method: string }>; retryPolicy: typeof GRPC_RETRY_POLICY }>;
  retryThrottling: typeof GRPC_RETRY_THROTTLING;
}

/**
 * The methods of `service` (its full name, `identity.v1.IdentityService`) a client may send again, in the
 * proto's order: those whose proto says `option idempotency_level = NO_SIDE_EFFECTS` or `IDEMPOTENT`.
 * A command says nothing, and is never retried: after its server died mid-call it may have been applied.
 */
export function retriedMethods(definition: PackageDefinition, service: string): string[] {
  const methods = definition[service] as Record<string, MethodDefinition<unknown, unknown>> | undefined;
  if (!methods || 'format' in methods) throw new Error(`service ${service} is not in the package definition`);
  return Object.entries(methods)
    .filter(([, method]) => REPEATABLE.has(String(method.options?.idempotency_level)))
    .map(([name]) => name);
}

/**
 * The service config of a channel to `service` (grpc-js's `grpc.service_config`): `round_robin` over every
 * address the target resolves to, and the retry policy for each method {@link retriedMethods} names.
 */
export function grpcServiceConfig(definition: PackageDefinition, service: string): GrpcServiceConfig {
  const retried = retriedMethods(definition, service);
  return {
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: retried.length === 0 ? [] : [{ name: retried.map((method) => ({ service, method })), retryPolicy: GRPC_RETRY_POLICY }],
    retryThrottling: GRPC_RETRY_THROTTLING,
  };
}

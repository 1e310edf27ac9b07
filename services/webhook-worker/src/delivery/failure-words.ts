import type { FailureKind } from '../ports.js';
import type { AddressRefusal } from './address-rules.js';

/** An endpoint's address is one the rules refuse (delivery/address-rules.ts): no connection was made. */
export class AddressNotAllowedError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_NOT_ALLOWED';

  constructor(readonly refusal: AddressRefusal) {
    super(refusal.reason);
    this.name = 'AddressNotAllowedError';
  }
}

export interface AttemptFailure {
  kind: FailureKind;
  /** In words for the endpoint's owner, as the delivery log shows them (at most 500 characters: the event's bound). */
  words: string;
}

/** The event's bound on `error`. */
export const ERROR_MAX_CHARS = 500;

/** `10 s`, `1.5 s`, `0.25 s`: a budget as its owner reads it. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/** The words for an attempt the endpoint did not answer within the whole attempt's budget. */
export function timedOut(timeoutMs: number): AttemptFailure {
  return { kind: 'timeout', words: `The endpoint did not answer within ${seconds(timeoutMs)}` };
}

const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: "TLS: the endpoint's certificate has expired",
  CERT_NOT_YET_VALID: "TLS: the endpoint's certificate is not valid yet",
  CERT_REVOKED: "TLS: the endpoint's certificate has been revoked",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS: the endpoint's certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS: the endpoint's certificate chain ends in a self-signed certificate that is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS: the endpoint's certificate is not signed by a trusted authority (is the chain complete?)",
  UNABLE_TO_GET_ISSUER_CERT: "TLS: the endpoint's certificate is not signed by a trusted authority (is the chain complete?)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS: the endpoint's certificate is not signed by a trusted authority (is the chain complete?)",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the endpoint's certificate is not valid for its host name",
};

const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'The connection was reset before the endpoint answered',
  EPIPE: 'The connection was closed before the endpoint answered',
  UND_ERR_SOCKET: 'The connection was closed before the endpoint answered',
  UND_ERR_CLOSED: 'The connection was closed before the endpoint answered',
  EHOSTUNREACH: "The endpoint's address could not be reached",
  ENETUNREACH: "The endpoint's address could not be reached",
  EADDRNOTAVAIL: "The endpoint's address could not be reached",
};

/**
 * What went wrong with an attempt that got no usable answer, from the error the request failed with (its
 * cause chain and an AggregateError's errors are searched: Node reports every address it tried). The
 * attempt's own deadline is the caller's to tell (`timedOut`), since only it knows which signal fired.
 */
export function attemptFailure(err: unknown, timeoutMs: number): AttemptFailure {
  const errors = flatten(err);
  const refused = errors.find((e): e is AddressNotAllowedError => e instanceof AddressNotAllowedError);
  if (refused) return failure('address-refused', `The endpoint's address is not allowed: ${refused.refusal.reason}`);
  const codes = errors.map((e) => (e as { code?: unknown }).code).filter((c): c is string => typeof c === 'string');
  const has = (...wanted: string[]) => codes.find((c) => wanted.includes(c));
  if (has('ENOTFOUND', 'ENODATA')) return failure('dns', 'The host name could not be found');
  if (has('EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT')) return failure('dns', 'The host name could not be resolved (DNS did not answer)');
  if (has('ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT')) return timedOut(timeoutMs);
  const altName = errors.find((e) => (e as { code?: unknown }).code === 'ERR_TLS_CERT_ALTNAME_INVALID') as { host?: unknown } | undefined;
  if (altName && typeof altName.host === 'string')
    return failure('tls', `TLS: the endpoint's certificate is not valid for ${altName.host}`);
  const tls = codes.find((c) => c in TLS_WORDS);
  if (tls) return failure('tls', TLS_WORDS[tls]!);
  const connection = codes.find((c) => c in CONNECTION_WORDS);
  if (connection) return failure('connection', CONNECTION_WORDS[connection]!);
  const first = errors[0] as Error | undefined;
  const message = first?.message ?? String(err);
  if (codes.some((c) => c.startsWith('ERR_SSL_') || c.startsWith('ERR_TLS_') || c === 'EPROTO') || /\bSSL\b|TLS/.test(message))
    return failure('tls', `TLS handshake failed (does the endpoint serve HTTPS on this port?): ${message}`);
  if (has('UND_ERR_HEADERS_OVERFLOW')) return failure('protocol', "The endpoint's answer had too many headers");
  if (codes.some((c) => c.startsWith('HPE_')) || first?.name === 'HTTPParserError')
    return failure('protocol', `The endpoint's answer is not valid HTTP: ${message}`);
  return failure('connection', `The request failed: ${message}`);
}

function failure(kind: FailureKind, words: string): AttemptFailure {
  return { kind, words: words.length > ERROR_MAX_CHARS ? `${words.slice(0, ERROR_MAX_CHARS - 1)}…` : words };
}

/** The error, its causes, and the errors an AggregateError gathers, depth first. */
function flatten(err: unknown, seen = new Set<unknown>()): unknown[] {
  if (err === undefined || err === null || seen.has(err)) return [];
  seen.add(err);
  const nested = [
    ...(err instanceof AggregateError ? (err.errors as unknown[]) : []),
    ...(err instanceof Error && err.cause !== undefined ? [err.cause] : []),
  ];
  return [err, ...nested.flatMap((e) => flatten(e, seen))];
}

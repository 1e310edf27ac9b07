import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { refusedAddress, type AddressRules } from './address-rules.js';
import { AddressNotAllowedError } from './failure-words.js';

/** Resolves a host name to every address it has (dns.lookup with `all: true`; tests give their own). */
export type Resolve = (
  hostname: string,
  family: number,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: Resolve = (hostname, family, callback) =>
  dnsLookup(hostname, { all: true, family, order: 'verbatim' }, (err, addresses) => callback(err, addresses ?? []));

/**
 * The `lookup` the sockets use: resolves the name itself, then refuses it when any of its addresses is one the
 * rules refuse (a name that points at a private address among public ones is refused as a whole). The socket
 * connects to the addresses handed back here and no others, so a name that resolves differently a moment later
 * (DNS rebinding) cannot slip a private address in between the check and the connection.
 */
export function filteringLookup(rules: AddressRules, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options.family === 4 || options.family === 6 ? options.family : 0, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0) {
        const none: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
        none.code = 'ENOTFOUND';
        return callback(none, '');
      }
      for (const { address } of addresses) {
        const refusal = refusedAddress(address, rules);
        if (refusal) return callback(new AddressNotAllowedError(refusal), '');
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface FilteringConnectorOptions extends AddressRules {
  /** How long connecting (TCP and TLS) may take. */
  connectTimeoutMs: number;
  resolve?: Resolve;
}

/**
 * undici's connector with the address rules: a literal address in the URL is checked before anything is
 * opened (net.connect does not call `lookup` for one); a name is resolved and checked by `filteringLookup`,
 * and the socket connects only to the addresses it checked (both families, tried in turn).
 */
export function filteringConnector(opts: FilteringConnectorOptions): buildConnector.connector {
  const rules: AddressRules = { allowLoopback: opts.allowLoopback };
  const connect = buildConnector({
    timeout: opts.connectTimeoutMs,
    lookup: filteringLookup(rules, opts.resolve),
    autoSelectFamily: true,
    // HTTP/1.1 only: what every webhook receiver serves, and one code path to reason about.
    allowH2: false,
  });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) {
      const refusal = refusedAddress(host, rules);
      if (refusal) {
        queueMicrotask(() => callback(new AddressNotAllowedError(refusal), null));
        return;
      }
    }
    connect(options, callback);
  };
}

export interface FilteringAgentOptions extends AddressRules {
  /** The whole attempt's budget; no single phase (connecting, the headers, a pause in the body) may take longer. */
  timeoutMs: number;
  resolve?: Resolve;
}

/** The one HTTP client of the worker's outbound requests: the address rules on every connection, no redirects. */
export function filteringAgent(opts: FilteringAgentOptions): Agent {
  return new Agent({
    connect: filteringConnector({
      allowLoopback: opts.allowLoopback,
      connectTimeoutMs: opts.timeoutMs,
      ...(opts.resolve ? { resolve: opts.resolve } : {}),
    }),
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    // Receivers are many and each is called now and then: an idle connection is not worth keeping long.
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
  });
}

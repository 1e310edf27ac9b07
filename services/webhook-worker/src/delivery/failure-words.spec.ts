import { describe, expect, it } from '@jest/globals';
import { AddressNotAllowedError, attemptFailure, seconds, timedOut } from './failure-words.js';

const coded = (code: string, message = code, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });

describe('attemptFailure', () => {
  it('says a refused address in full, naming the address', () => {
    const err = new AddressNotAllowedError({ address: '10.0.0.5', kind: 'private', reason: '10.0.0.5 is a private address' });
    expect(attemptFailure(err, 10_000)).toEqual({
      kind: 'address-refused',
      words: "The endpoint's address is not allowed: 10.0.0.5 is a private address",
    });
    // however deep Node wraps it
    expect(attemptFailure(new TypeError('fetch failed', { cause: new AggregateError([err]) }), 10_000).kind).toBe('address-refused');
  });

  it.each([
    [coded('ENOTFOUND', 'getaddrinfo ENOTFOUND nowhere.invalid'), 'dns', 'The host name could not be found'],
    [coded('EAI_AGAIN'), 'dns', 'The host name could not be resolved (DNS did not answer)'],
    [coded('ECONNREFUSED', 'connect ECONNREFUSED 203.0.113.7:443'), 'connection', 'Connection refused'],
    [coded('ECONNRESET'), 'connection', 'The connection was reset before the endpoint answered'],
    [coded('UND_ERR_SOCKET', 'other side closed'), 'connection', 'The connection was closed before the endpoint answered'],
    [coded('EHOSTUNREACH'), 'connection', "The endpoint's address could not be reached"],
    [coded('UND_ERR_CONNECT_TIMEOUT'), 'timeout', 'The endpoint did not answer within 10 s'],
    [coded('UND_ERR_HEADERS_TIMEOUT'), 'timeout', 'The endpoint did not answer within 10 s'],
    [coded('CERT_HAS_EXPIRED', 'certificate has expired'), 'tls', "TLS: the endpoint's certificate has expired"],
    [coded('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls', "TLS: the endpoint's certificate is self-signed"],
    [
      coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      'tls',
      "TLS: the endpoint's certificate is not signed by a trusted authority (is the chain complete?)",
    ],
    [
      coded('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", { host: 'hooks.example.com' }),
      'tls',
      "TLS: the endpoint's certificate is not valid for hooks.example.com",
    ],
    [
      coded('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'),
      'tls',
      'TLS handshake failed (does the endpoint serve HTTPS on this port?): wrong version number',
    ],
    [coded('UND_ERR_HEADERS_OVERFLOW'), 'protocol', "The endpoint's answer had too many headers"],
    [coded('HPE_INVALID_CONSTANT', 'Expected HTTP/'), 'protocol', "The endpoint's answer is not valid HTTP: Expected HTTP/"],
    [new Error('something odd'), 'connection', 'The request failed: something odd'],
  ])('words %s for the owner', (err, kind, words) => {
    expect(attemptFailure(err, 10_000)).toEqual({ kind, words });
  });

  it('finds the code among the addresses Node tried (AggregateError) and in causes', () => {
    const tried = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], '');
    expect(attemptFailure(tried, 1000).words).toBe('Connection refused');
    expect(attemptFailure(new Error('fetch failed', { cause: coded('ENOTFOUND') }), 1000).words).toBe('The host name could not be found');
  });

  it('keeps the words within the event’s 500 characters', () => {
    expect(attemptFailure(new Error('x'.repeat(2000)), 1000).words).toHaveLength(500);
  });
});

describe('timedOut', () => {
  it('gives the budget in seconds', () => {
    expect(timedOut(10_000).words).toBe('The endpoint did not answer within 10 s');
    expect(timedOut(1500).words).toBe('The endpoint did not answer within 1.5 s');
    expect(seconds(250)).toBe('0.25 s');
  });
});

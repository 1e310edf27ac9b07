import type { LookupAddress, LookupOptions } from 'node:dns';
import { describe, expect, it } from '@jest/globals';
import { AddressNotAllowedError } from './failure-words.js';
import { filteringConnector, filteringLookup, type Resolve } from './filtering-agent.js';

// The checks that need no socket: what the lookup hands the socket, and literal addresses refused before one
// is opened. Connections to real receivers are in test/integration/webhook-sender.int.spec.ts.

const zone: Record<string, LookupAddress[]> = {
  'hooks.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
  ],
  'sneaky.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
  'mapped.example.com': [{ address: '::ffff:192.168.1.10', family: 6 }],
  localhost: [{ address: '127.0.0.1', family: 4 }],
  'empty.example.com': [],
};
const resolved: string[] = [];
const resolve: Resolve = (hostname, _family, callback) => {
  resolved.push(hostname);
  const addresses = zone[hostname];
  if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  callback(null, addresses);
};

type Looked = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number | undefined };
const lookUp = (hostname: string, options: LookupOptions, allowLoopback = false) =>
  new Promise<Looked>((done) =>
    filteringLookup({ allowLoopback }, resolve)(hostname, options, (err, address, family) => done({ err, address, family })),
  );

describe('filteringLookup', () => {
  it('hands the socket every address of a name whose addresses are all allowed', async () => {
    expect(await lookUp('hooks.example.com', { all: true })).toEqual({ err: null, address: zone['hooks.example.com'], family: undefined });
    expect(await lookUp('hooks.example.com', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('refuses a name when any of its addresses is refused, naming that address', async () => {
    const sneaky = await lookUp('sneaky.example.com', { all: true });
    expect(sneaky.err).toBeInstanceOf(AddressNotAllowedError);
    expect(sneaky.err?.message).toBe('10.0.0.5 is a private address');
    expect((await lookUp('metadata.example.com', { all: true })).err?.message).toBe('169.254.169.254 is the cloud metadata address');
    expect((await lookUp('mapped.example.com', {})).err?.message).toBe('::ffff:192.168.1.10 is a private address');
  });

  it('refuses localhost unless loopback is allowed', async () => {
    expect((await lookUp('localhost', { all: true })).err?.message).toBe('127.0.0.1 is a loopback address');
    expect(await lookUp('localhost', { all: true }, true)).toEqual({ err: null, address: zone['localhost'], family: undefined });
  });

  it("passes DNS's own failures on, and a name without addresses as not found", async () => {
    expect((await lookUp('nowhere.invalid', {})).err?.code).toBe('ENOTFOUND');
    expect((await lookUp('empty.example.com', {})).err?.code).toBe('ENOTFOUND');
  });
});

describe('filteringConnector', () => {
  const connect = (hostname: string, allowLoopback = false) =>
    new Promise<Error | null>((done) =>
      filteringConnector({ allowLoopback, connectTimeoutMs: 1000, resolve })({ hostname, protocol: 'http:', port: '80' }, (...args) =>
        done(args[0]),
      ),
    );

  it('refuses a literal address in the URL before opening anything', async () => {
    resolved.length = 0;
    for (const [hostname, reason] of [
      ['10.255.255.1', '10.255.255.1 is a private address'],
      ['127.0.0.1', '127.0.0.1 is a loopback address'],
      ['[::1]', '::1 is a loopback address'],
      ['[fd00::5]', 'fd00::5 is a unique-local address'],
      ['169.254.169.254', '169.254.169.254 is the cloud metadata address'],
      ['0.0.0.0', '0.0.0.0 is an unspecified address'],
    ] as const) {
      const err = await connect(hostname);
      expect(err).toBeInstanceOf(AddressNotAllowedError);
      expect(err?.message).toBe(reason);
    }
    expect(resolved).toEqual([]);
  });

  it('refuses a name through the lookup, before any connection', async () => {
    const err = await connect('sneaky.example.com');
    expect(err).toBeInstanceOf(AddressNotAllowedError);
    expect(err?.message).toBe('10.0.0.5 is a private address');
  });
});

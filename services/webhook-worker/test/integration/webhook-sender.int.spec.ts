import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePorts, waitFor } from '@clipit/testing';
import type { Resolve } from '../../src/delivery/filtering-agent.js';
import { WebhookSender } from '../../src/delivery/webhook-sender.js';
import type { OutboundDelivery } from '../../src/ports.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// The outbound HTTP side on real sockets, without the queue: what an answer's body gives, the failures an
// endpoint's owner reads, TLS, and that a name connects only to the addresses that were checked.

/** A zone of made-up names (no system DNS involved), so the tests decide what each name resolves to. */
const zone: Record<string, LookupAddress[]> = {
  'hooks.test': [{ address: '127.0.0.1', family: 4 }],
  'rebinding.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ],
};
const resolve: Resolve = (hostname, _family, callback) => {
  const addresses = zone[hostname];
  if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  callback(null, addresses);
};

const post = (sender: WebhookSender, url: string, signal = new AbortController().signal) =>
  sender.post({ url, headers: { 'content-type': 'application/json' }, body: '{"type":"test"}' } satisfies OutboundDelivery, signal);

describe('WebhookSender (real sockets)', () => {
  const receiver = new WebhookReceiver();
  const tlsReceiver = new WebhookReceiver({ tls: true });
  const sender = new WebhookSender({ timeoutMs: 1000, allowLoopback: true });
  const zoned = new WebhookSender({ timeoutMs: 1000, allowLoopback: true, resolve });

  beforeAll(async () => {
    await receiver.start();
    await tlsReceiver.start();
  });

  afterAll(async () => {
    await sender.close();
    await zoned.close();
    await receiver.close();
    await tlsReceiver.close();
  });

  it('reads the first 1,024 characters of an answer, then stops reading and drops the connection', async () => {
    let closed = false;
    let written = 0;
    receiver.on('/endless', (res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.on('close', () => (closed = true));
      const more = () => {
        if (closed) return;
        written++;
        res.write('é'.repeat(300), () => setTimeout(more, 5));
      };
      more();
    });
    const answer = await post(sender, receiver.url('/endless'));
    expect(answer).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: 'é'.repeat(1024) });
    await waitFor(() => closed || undefined, 2000, 'the endless answer dropped');
    expect(written).toBeLessThan(50);
  });

  it('keeps what came of a body that stalls after the status: the endpoint answered in time', async () => {
    receiver.on('/stalls', (res) => {
      res.writeHead(202);
      res.write('accepted, more to come');
    });
    const started = Date.now();
    const answer = await post(sender, receiver.url('/stalls'));
    expect(answer).toMatchObject({ ok: true, statusCode: 202, error: null, responseExcerpt: 'accepted, more to come' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says a closed port is "Connection refused"', async () => {
    const [port] = (await freePorts(1)) as [number];
    expect(await post(sender, `http://127.0.0.1:${port}/`)).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'Connection refused',
      responseExcerpt: '',
    });
  });

  it('says a host name that does not exist could not be found', async () => {
    const answer = await post(sender, 'http://nowhere.invalid/hooks');
    expect(answer).toMatchObject({ ok: false, statusCode: null });
    // NXDOMAIN with a resolver; without any, the lookup itself fails.
    expect(answer.error).toMatch(/^The host name could not be (found|resolved)/);
    expect((await post(zoned, 'http://missing.test/')).error).toBe('The host name could not be found');
  });

  it('refuses a self-signed certificate, reached by name through the checked lookup', async () => {
    expect(await post(sender, tlsReceiver.url('/hook', 'localhost'))).toMatchObject({
      ok: false,
      statusCode: null,
      error: "TLS: the endpoint's certificate is self-signed",
    });
    expect(tlsReceiver.requests).toEqual([]);
  });

  it('says a TLS handshake with a server that speaks plain HTTP failed', async () => {
    const answer = await post(sender, receiver.url('/hook').replace('http://', 'https://'));
    expect(answer).toMatchObject({ ok: false, statusCode: null });
    expect(answer.error).toMatch(/^TLS handshake failed \(does the endpoint serve HTTPS on this port\?\)/);
  });

  it('connects a name only to the addresses it resolved and checked, and refuses it whole when one is refused', async () => {
    const connectionsBefore = receiver.connections;
    // hooks.test exists only in this test's zone: the socket went to the address the lookup handed it.
    expect(await post(zoned, `http://hooks.test:${receiver.port}/zoned`)).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.requestsTo('/zoned')).toHaveLength(1);
    expect(receiver.requestsTo('/zoned')[0]!.headers['host']).toBe(`hooks.test:${receiver.port}`);
    expect(await post(zoned, `http://rebinding.test:${receiver.port}/rebinding`)).toMatchObject({
      ok: false,
      statusCode: null,
      error: "The endpoint's address is not allowed: 10.0.0.5 is a private address",
    });
    expect(receiver.requestsTo('/rebinding')).toHaveLength(0);
    expect(receiver.connections - connectionsBefore).toBe(1);
  });

  it('throws, stating nothing, when the worker shuts down mid-attempt', async () => {
    receiver.on('/hangs', () => undefined);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('shutting down')), 100);
    await expect(post(sender, receiver.url('/hangs'), stop.signal)).rejects.toThrow();
  });
});

import { status } from '@grpc/grpc-js';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentity } from '../support/fake-identity.js';
import { postUrl, rejected, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';
import { TcpProxy } from '../support/tcp-proxy.js';

// A tagged streamer or token is checked with identity over gRPC before anything is written
// (docs/adr/0014): identity answering, hanging and gone. Submissions reaches identity through a relay
// the test controls, in front of a stand-in that answers identity's contract.

const UNAVAILABLE_TEXT = 'Streamer tags cannot be checked right now; please try again in a minute';

let h: SubmissionsHarness;
let identity: FakeIdentity;
let relay: TcpProxy;

beforeAll(async () => {
  identity = await FakeIdentity.start();
  relay = await TcpProxy.start({ host: '127.0.0.1', port: identity.port });
  h = await startSubmissions({ IDENTITY_GRPC_URL: relay.address });
});

afterAll(async () => {
  await h?.stop();
  await relay?.close();
  await identity?.stop();
});

/** What a create left behind for its post: rows in submissions, and submission.created events in the outbox. */
async function writtenFor(url: string): Promise<{ rows: number; events: number }> {
  return {
    rows: await h.count('SELECT count(*) FROM submissions WHERE url = $1', [url]),
    events: await h.count(`SELECT count(*) FROM outbox WHERE type = 'submission.created' AND envelope->'data'->'submission'->>'url' = $1`, [
      url,
    ]),
  };
}

const create = (tag: { streamerId?: string; tokenId?: string }, url = postUrl()) => ({
  url,
  call: h.client.createSubmission({ userId: identity.addUser('clipper').id, name: 'A clip', url, walletAddress: 'pending', ...tag }),
});

describe('tagging a streamer or token', () => {
  it('while identity answers: a streamer or its token is stored, anything else is 404 with nothing written', async () => {
    const streamer = identity.addUser('streamer');
    const token = identity.addToken(streamer.id);
    const byStreamer = create({ streamerId: streamer.id });
    expect(await byStreamer.call).toMatchObject({ streamerId: streamer.id });
    expect(await writtenFor(byStreamer.url)).toEqual({ rows: 1, events: 1 });
    const byToken = create({ tokenId: token.id });
    expect(await byToken.call).toMatchObject({ tokenId: token.id });

    const refusals = [
      [create({ streamerId: identity.addUser('clipper').id }), 'Streamer not found'],
      [create({ streamerId: '00000000-0000-4000-8000-000000000000' }), 'Streamer not found'],
      [create({ tokenId: '00000000-0000-4000-8000-000000000000' }), 'Streamer token not found'],
    ] as const;
    for (const [{ url, call }, message] of refusals) {
      const err = await rejected(call);
      expect({ code: err.code, message: err.message, fromDomain: err.fromDomain }).toEqual({
        code: status.NOT_FOUND,
        message,
        fromDomain: true,
      });
      expect(await writtenFor(url)).toEqual({ rows: 0, events: 0 });
    }
  });

  it('while identity hangs: UNAVAILABLE once the 5 s deadline passes, with nothing written', async () => {
    relay.stall();
    const { url, call } = create({ streamerId: identity.addUser('streamer').id });
    const started = Date.now();
    const err = await rejected(call);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    // The service's own words (fromDomain), so the gateway shows them with its 503.
    expect({ code: err.code, message: err.message, fromDomain: err.fromDomain }).toEqual({
      code: status.UNAVAILABLE,
      message: UNAVAILABLE_TEXT,
      fromDomain: true,
    });
    expect(await writtenFor(url)).toEqual({ rows: 0, events: 0 });
  });

  it('while identity is gone: tagged posts are UNAVAILABLE at once with nothing written, untagged ones go through', async () => {
    relay.refuse();
    for (const tag of [
      { streamerId: identity.addUser('streamer').id },
      { tokenId: identity.addToken(identity.addUser('streamer').id).id },
    ]) {
      const { url, call } = create(tag);
      const started = Date.now();
      const err = await rejected(call);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect({ code: err.code, message: err.message, fromDomain: err.fromDomain }).toEqual({
        code: status.UNAVAILABLE,
        message: UNAVAILABLE_TEXT,
        fromDomain: true,
      });
      expect(await writtenFor(url)).toEqual({ rows: 0, events: 0 });
    }

    // Only the tag needs identity: a post without one is stored and announced as usual.
    const untagged = create({});
    expect(await untagged.call).toMatchObject({ url: untagged.url, status: 'pending' });
    expect(await writtenFor(untagged.url)).toEqual({ rows: 1, events: 1 });
    // And readiness does not follow identity: the service keeps serving everything else.
    expect((await fetch(`${h.httpUrl}/health/ready`)).status).toBe(200);
  });

  it('once identity is back, the same tagged post goes through: the refusal left nothing to conflict with', async () => {
    relay.refuse();
    const streamer = identity.addUser('streamer');
    const url = postUrl();
    expect((await rejected(create({ streamerId: streamer.id }, url).call)).code).toBe(status.UNAVAILABLE);

    relay.restore();
    // The client's channel reconnects with backoff (about a second at first), so the clipper's retry may need another.
    const stored = await waitFor(
      async () => create({ streamerId: streamer.id }, url).call.catch(() => undefined),
      20_000,
      'a tagged create to succeed once identity is back',
    );
    expect(stored).toMatchObject({ streamerId: streamer.id, url });
    expect(await writtenFor(url)).toEqual({ rows: 1, events: 1 });
  });
});

// The token routes over real HTTP with identity replaced by the in-memory gRPC server: who may call them,
// the shared rules checked before any call, and identity's refusals passed through as text.
import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startGateway, type GatewayHarness } from '../support/gateway-harness.js';

const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const LINK = 'https://pump.fun/coin/abc';
let seq = 0;

async function expectText(res: Response, status: number, text: string) {
  expect({ status: res.status, type: res.headers.get('content-type'), body: await res.text() }).toEqual({
    status,
    type: 'text/plain; charset=utf-8',
    body: text,
  });
}

describe('token routes (fake identity)', () => {
  let h: GatewayHarness;
  let origin: string;
  const send = (cookie: string | undefined, method: string, path: string, body?: unknown) =>
    fetch(`${h.url}${path}`, {
      method,
      headers: { origin, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const tokenCalls = () => h.identity.calls.filter((c) => /Token/.test(c.method) && c.method !== 'ListTokens');

  async function signUp(role: 'streamer' | 'clipper'): Promise<{ id: string; cookie: string }> {
    seq += 1;
    const res = await send(undefined, 'POST', '/api/auth/signup', {
      email: `t${seq}@example.com`,
      twitterHandle: `tok_${seq}_${Date.now().toString(36).slice(-4)}`,
      walletAddress: WALLET,
      role,
      password: 'password123',
    });
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { id: ((await res.json()) as { user: { id: string } }).user.id, cookie: `clipit.sid=${sid}` };
  }

  beforeAll(async () => {
    h = await startGateway({ RATE_LIMIT_MAX_PER_IP: 1000, RATE_LIMIT_MAX_PER_HANDLE: 1000 });
    origin = new URL(h.url).origin;
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.identity.calls.length = 0;
  });

  it('creates, lists and changes the streamer’s tokens, one identity call each', async () => {
    const streamer = await signUp('streamer');
    h.identity.calls.length = 0;
    const created = await send(streamer.cookie, 'POST', '/api/tokens', {
      name: ' $TOK ',
      pumpFunLink: LINK,
      description: '',
      isActive: true,
    });
    expect(created.status).toBe(201);
    const token = (await created.json()) as { id: string };
    expect(token).toEqual({
      id: expect.any(String),
      streamerId: streamer.id,
      name: '$TOK',
      pumpFunLink: LINK,
      description: null,
      isActive: 'true',
    });
    expect(tokenCalls().map((c) => [c.method, c.request])).toEqual([
      ['CreateToken', expect.objectContaining({ userId: streamer.id, name: '$TOK', pumpFunLink: LINK, isActive: 'true' })],
    ]);

    const patched = await send(streamer.cookie, 'PATCH', `/api/tokens/${token.id}`, { isActive: false, description: 'Now off' });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: token.id, isActive: 'false', description: 'Now off', name: '$TOK' });
    const update = tokenCalls().find((c) => c.method === 'UpdateToken')!;
    expect(update.request).toMatchObject({ userId: streamer.id, id: token.id, isActive: 'false', description: 'Now off' });
    expect(update.request['name']).toBeUndefined();

    const mine = await send(streamer.cookie, 'GET', '/api/tokens/mine');
    expect(await mine.json()).toEqual([expect.objectContaining({ id: token.id, isActive: 'false' })]);
    expect(((await (await send(undefined, 'GET', '/api/tokens')).json()) as { id: string }[]).map((t) => t.id)).not.toContain(token.id);
    expect(tokenCalls().map((c) => c.method)).toEqual(['CreateToken', 'UpdateToken', 'ListMyTokens']);
  });

  it('refuses without a session, a caller who is not a streamer and every broken rule before calling identity', async () => {
    const streamer = await signUp('streamer');
    const clipper = await signUp('clipper');
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/tokens/mine'],
      ['POST', '/api/tokens'],
      ['PATCH', `/api/tokens/${id}`],
    ] as const) {
      await expectText(await send(undefined, method, path, method === 'GET' ? undefined : { name: 'x' }), 401, 'Not signed in');
      await expectText(
        await send(clipper.cookie, method, path, method === 'GET' ? undefined : { name: 'x', pumpFunLink: LINK }),
        403,
        TOKEN_MESSAGES.streamersOnly,
      );
    }
    const rules: [unknown, string][] = [
      [{ name: '', pumpFunLink: LINK }, TOKEN_MESSAGES.nameRequired],
      [{ pumpFunLink: LINK }, TOKEN_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(51), pumpFunLink: LINK }, TOKEN_MESSAGES.nameLong],
      [{ name: 'T', pumpFunLink: 'pump.fun/coin' }, TOKEN_MESSAGES.pumpFunLinkInvalid],
      [{ name: 'T' }, TOKEN_MESSAGES.pumpFunLinkInvalid],
      [{ name: 'T', pumpFunLink: LINK, description: 'd'.repeat(501) }, TOKEN_MESSAGES.descriptionLong],
      [{ name: 'T', pumpFunLink: LINK, isActive: 'maybe' }, TOKEN_MESSAGES.isActiveInvalid],
      [{ name: 'T', pumpFunLink: LINK, ticker: 'T' }, 'Unknown field: ticker'],
      [{ name: 7, pumpFunLink: LINK }, 'Token name must be text'],
    ];
    for (const [body, message] of rules) await expectText(await send(streamer.cookie, 'POST', '/api/tokens', body), 400, message);
    // A change checks only the fields it sends.
    await expectText(await send(streamer.cookie, 'PATCH', `/api/tokens/${id}`, { name: '  ' }), 400, TOKEN_MESSAGES.nameRequired);
    await expectText(
      await send(streamer.cookie, 'PATCH', `/api/tokens/${id}`, { pumpFunLink: 'nope' }),
      400,
      TOKEN_MESSAGES.pumpFunLinkInvalid,
    );
    await expectText(
      await send(streamer.cookie, 'PATCH', `/api/tokens/${id}`, { streamerId: clipper.id }),
      400,
      'Unknown field: streamerId',
    );
    expect(tokenCalls()).toEqual([]);
  });

  it('answers identity’s refusals as text: someone else’s token, an unknown one', async () => {
    const owner = await signUp('streamer');
    const other = await signUp('streamer');
    const created = (await (await send(owner.cookie, 'POST', '/api/tokens', { name: 'Mine', pumpFunLink: LINK })).json()) as { id: string };
    await expectText(await send(other.cookie, 'PATCH', `/api/tokens/${created.id}`, { name: 'Taken' }), 403, TOKEN_MESSAGES.notOwner);
    await expectText(
      await send(owner.cookie, 'PATCH', '/api/tokens/00000000-0000-4000-8000-000000000000', { name: 'X' }),
      404,
      'Token not found',
    );
  });
});

// Streamers managing their tokens (spec 02 §5 "Token", issue 17) over real HTTP: the gateway checks the
// shared rules, identity owns the tokens, enforces the rules again and publishes each change.
import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const SIGN_UP_LINK = 'https://pump.fun/coin/signup123';
const LINK = 'https://pump.fun/coin/second456';

let seq = 0;

interface Account {
  id: string;
  cookie: string;
}

interface MyToken {
  id: string;
  streamerId: string;
  name: string;
  pumpFunLink: string | null;
  description: string | null;
  isActive: 'true' | 'false';
}

describe('streamer tokens (gateway + identity, real servers)', () => {
  let p: Platform;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const as = (who: Account | undefined, method: string, path: string, body?: unknown) =>
    api(path, json(method, body, who ? { cookie: who.cookie } : {}));

  async function signUp(role: 'streamer' | 'clipper', extra: Record<string, string> = {}): Promise<Account> {
    seq += 1;
    const handle = `tk_${Date.now().toString(36).slice(-6)}${seq}`.slice(0, 15);
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role,
        password: 'a-good-password',
        ...extra,
      }),
    );
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { id: ((await res.json()) as { user: { id: string } }).user.id, cookie: `clipit.sid=${sid}` };
  }

  const publicTokenIds = async (): Promise<string[]> => {
    const res = await api('/api/tokens');
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }[]).map((t) => t.id);
  };

  let streamer: Account;
  let other: Account;
  let clipper: Account;

  beforeAll(async () => {
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 1000 });
    streamer = await signUp('streamer', { displayName: 'Token Owner', tokenLink: SIGN_UP_LINK });
    other = await signUp('streamer', { displayName: 'Other Streamer' });
    clipper = await signUp('clipper');
  });
  afterAll(async () => {
    await p?.stop();
  });

  let signUpToken: MyToken;
  let created: MyToken;

  it("lists the streamer's sign-up token", async () => {
    const res = await as(streamer, 'GET', '/api/tokens/mine');
    expect(res.status).toBe(200);
    const mine = (await res.json()) as MyToken[];
    expect(mine).toEqual([
      {
        id: expect.any(String),
        streamerId: streamer.id,
        name: 'Token Owner',
        pumpFunLink: SIGN_UP_LINK,
        description: null,
        isActive: 'true',
      },
    ]);
    signUpToken = mine[0]!;
    expect(await publicTokenIds()).toContain(signUpToken.id);
  });

  it('creates a token, which GET /api/tokens lists', async () => {
    const res = await as(streamer, 'POST', '/api/tokens', { name: '  $SECOND  ', pumpFunLink: LINK, description: 'The second coin' });
    expect(res.status).toBe(201);
    created = (await res.json()) as MyToken;
    expect(created).toEqual({
      id: expect.any(String),
      streamerId: streamer.id,
      name: '$SECOND',
      pumpFunLink: LINK,
      description: 'The second coin',
      isActive: 'true',
    });
    expect(await publicTokenIds()).toEqual(expect.arrayContaining([signUpToken.id, created.id]));
    const mine = (await (await as(streamer, 'GET', '/api/tokens/mine')).json()) as MyToken[];
    expect(mine.map((t) => t.id)).toEqual([created.id, signUpToken.id]);
  });

  it('updates it, and deactivated it leaves GET /api/tokens but stays in the streamer’s list', async () => {
    const renamed = await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { name: '$RENAMED', description: '' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ ...created, name: '$RENAMED', description: null });

    const off = await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ id: created.id, name: '$RENAMED', isActive: 'false' });
    const listed = await publicTokenIds();
    expect(listed).not.toContain(created.id);
    expect(listed).toContain(signUpToken.id);
    const mine = (await (await as(streamer, 'GET', '/api/tokens/mine')).json()) as MyToken[];
    expect(mine.find((t) => t.id === created.id)).toMatchObject({ isActive: 'false', name: '$RENAMED' });

    const on = await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { isActive: 'true' });
    expect(await on.json()).toMatchObject({ isActive: 'true' });
    expect(await publicTokenIds()).toContain(created.id);
  });

  it('refuses each broken rule with its words, as text', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', pumpFunLink: LINK }, TOKEN_MESSAGES.nameRequired],
      [{ name: 'x'.repeat(51), pumpFunLink: LINK }, TOKEN_MESSAGES.nameLong],
      [{ name: '$BAD', pumpFunLink: 'pump.fun/coin/abc' }, TOKEN_MESSAGES.pumpFunLinkInvalid],
      [{ name: '$LONG', pumpFunLink: LINK, description: 'd'.repeat(501) }, TOKEN_MESSAGES.descriptionLong],
    ];
    for (const [body, message] of cases) await expectText(await as(streamer, 'POST', '/api/tokens', body), 400, message);
    await expectText(await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { name: '' }), 400, TOKEN_MESSAGES.nameRequired);
    await expectText(await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { name: 'x'.repeat(51) }), 400, TOKEN_MESSAGES.nameLong);
    await expectText(
      await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { pumpFunLink: 'not a link' }),
      400,
      TOKEN_MESSAGES.pumpFunLinkInvalid,
    );
    await expectText(
      await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { description: 'd'.repeat(501) }),
      400,
      TOKEN_MESSAGES.descriptionLong,
    );
    // Nothing of it was stored.
    const mine = (await (await as(streamer, 'GET', '/api/tokens/mine')).json()) as MyToken[];
    expect(mine.map((t) => t.name).sort()).toEqual(['$RENAMED', 'Token Owner']);
  });

  it('refuses a clipper (403), another streamer’s token (403), no session (401), an unknown field (400) and an unknown token (404)', async () => {
    await expectText(await as(clipper, 'GET', '/api/tokens/mine'), 403, TOKEN_MESSAGES.streamersOnly);
    await expectText(await as(clipper, 'POST', '/api/tokens', { name: '$CLIPPER', pumpFunLink: LINK }), 403, TOKEN_MESSAGES.streamersOnly);
    await expectText(await as(clipper, 'PATCH', `/api/tokens/${created.id}`, { name: '$MINE' }), 403, TOKEN_MESSAGES.streamersOnly);

    await expectText(await as(other, 'PATCH', `/api/tokens/${created.id}`, { name: '$TAKEN' }), 403, TOKEN_MESSAGES.notOwner);
    await expectText(await as(other, 'PATCH', `/api/tokens/${signUpToken.id}`, { isActive: false }), 403, TOKEN_MESSAGES.notOwner);
    expect((await (await as(other, 'GET', '/api/tokens/mine')).json()) as MyToken[]).toEqual([]);

    await expectText(await as(undefined, 'GET', '/api/tokens/mine'), 401, 'Not signed in');
    await expectText(await as(undefined, 'POST', '/api/tokens', { name: '$ANON', pumpFunLink: LINK }), 401, 'Not signed in');
    await expectText(await as(undefined, 'PATCH', `/api/tokens/${created.id}`, { name: '$ANON' }), 401, 'Not signed in');

    await expectText(
      await as(streamer, 'POST', '/api/tokens', { name: '$EXTRA', pumpFunLink: LINK, streamerId: other.id }),
      400,
      'Unknown field: streamerId',
    );
    await expectText(await as(streamer, 'PATCH', `/api/tokens/${created.id}`, { ticker: 'X' }), 400, 'Unknown field: ticker');
    await expectText(
      await as(streamer, 'PATCH', '/api/tokens/00000000-0000-4000-8000-000000000000', { name: '$GHOST' }),
      404,
      'Token not found',
    );

    // The refused changes changed nothing.
    const mine = (await (await as(streamer, 'GET', '/api/tokens/mine')).json()) as MyToken[];
    expect(mine.map((t) => [t.name, t.isActive])).toEqual([
      ['$RENAMED', 'true'],
      ['Token Owner', 'true'],
    ]);
  });
});

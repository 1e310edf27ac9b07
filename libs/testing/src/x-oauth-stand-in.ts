// A stand-in for X's OAuth 2.0 and its /2/users/me, for the sign-in with X tests (ADR 0028): a real,
// certified authorization server (oidc-provider) on a loopback port, with the authorization code flow,
// PKCE required (S256) and a confidential client authenticating with client_secret_basic, as X's is. The
// login and consent pages are answered at once for the X user the test chose (or refused, to test "the
// person said no"), so a browser or a test following redirects gets through without a form. /2/users/me
// checks the bearer access token against the server's own store and answers the X user behind it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import { listenOnLoopback } from './loopback.js';

/** An X user as /2/users/me answers it (user.fields=profile_image_url). */
export interface XStandInUser {
  id: string;
  name: string;
  username: string;
  profile_image_url?: string;
}

export interface XOAuthStandIn {
  /** The authorization server's issuer (http://127.0.0.1:<port>). */
  url: string;
  /** What the gateway's X_OAUTH_AUTHORIZE_URL, X_OAUTH_TOKEN_URL and X_API_BASE_URL should be. */
  authorizeUrl: string;
  tokenUrl: string;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** Allows a callback address (the gateway's /auth/twitter/callback, known once it listens). */
  allowRedirectUri(uri: string): void;
  /** The X user the next logins sign in as. */
  signInAs(user: XStandInUser): void;
  /** The next authorization is refused as if the person clicked "Cancel" (error=access_denied). */
  denyNext(): void;
  /** Every call /2/users/me answered, with its status. */
  usersMeCalls: { status: number }[];
  /** The token requests, with the client authentication they carried. */
  tokenRequests: { authorization: string | undefined; body: string }[];
  close(): Promise<void>;
}

export interface XOAuthStandInOptions {
  clientId?: string;
  clientSecret?: string;
  /** The scopes the app asks for (X's names). */
  scopes?: string;
}

/** oidc-provider's storage, in memory, with the client list open to additions after start-up. */
function memoryAdapter(clients: Map<string, AdapterPayload>) {
  const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();
  return class MemoryAdapter implements Adapter {
    private readonly store: Map<string, { payload: AdapterPayload; expiresAt: number }>;
    constructor(private readonly model: string) {
      this.store = stores.get(model) ?? new Map();
      stores.set(model, this.store);
    }
    private live(id: string): AdapterPayload | undefined {
      const entry = this.store.get(id);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        this.store.delete(id);
        return undefined;
      }
      return entry.payload;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.model === 'Client' ? clients.get(id) : this.live(id);
    }
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return [...this.store.values()].find((e) => e.payload.userCode === userCode)?.payload;
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = [...this.store.entries()].find(([, e]) => e.payload.uid === uid)?.[0];
      return id ? this.live(id) : undefined;
    }
    async consume(id: string): Promise<void> {
      const entry = this.store.get(id);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      this.store.delete(id);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [id, e] of this.store) if (e.payload.grantId === grantId) this.store.delete(id);
    }
  };
}

/** Starts the stand-in on a free loopback port. */
export async function startXOAuthStandIn(options: XOAuthStandInOptions = {}): Promise<XOAuthStandIn> {
  const clientId = options.clientId ?? `clipit-test-${randomBytes(4).toString('hex')}`;
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const scopes = options.scopes ?? 'tweet.read users.read';
  const redirectUris = new Set<string>();
  const clients = new Map<string, AdapterPayload>();
  const users = new Map<string, XStandInUser>();
  let current: XStandInUser = { id: '1', name: 'X Test', username: 'x_test' };
  let deny = false;
  const usersMeCalls: { status: number }[] = [];
  const tokenRequests: { authorization: string | undefined; body: string }[] = [];

  const registerClient = () => {
    clients.set(clientId, {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [...redirectUris],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      // The server's one key is an EC key (see jwks below).
      id_token_signed_response_alg: 'ES256',
    });
  };
  registerClient();

  const server: Server = createServer();
  const url = await listenOnLoopback(server);
  // The X API's resource: access tokens are issued for it, as X's are for api.x.com.
  const apiBaseUrl = `${url}/x-api`;

  const provider = new Provider(url, {
    adapter: memoryAdapter(clients),
    clients: [],
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // A key of its own (nothing here is signed with it but the server wants one), and lifetimes set, so it starts quietly.
    jwks: {
      keys: [{ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256' }],
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600 },
    pkce: { required: () => true },
    // X's scopes are the API's (a resource server's), not OpenID Connect's: granted for the resource below.
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiBaseUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: scopes, audience: apiBaseUrl, accessTokenFormat: 'opaque', accessTokenTTL: 7200 }),
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
  });

  /** X's login and consent pages, answered at once: the chosen user agrees to everything asked (or, once, refuses). */
  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (deny) {
      deny = false;
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = current.id;
    users.set(accountId, current);
    const grant = new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
    grant.addResourceScope(apiBaseUrl, String(details.params['scope'] ?? scopes));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId, remember: false }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** GET /x-api/2/users/me: the X user behind a live access token that may read users. */
  async function usersMe(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, body: unknown) => {
      usersMeCalls.push({ status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const found = token ? await provider.AccessToken.find(token) : undefined;
    if (!found || found.isExpired) return answer(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    if (
      !String(found.scope ?? '')
        .split(' ')
        .includes('users.read')
    )
      return answer(403, { title: 'Forbidden', status: 403, detail: 'users.read scope required' });
    const user = users.get(String(found.accountId));
    if (!user) return answer(404, { title: 'Not Found', status: 404 });
    const fields = new URL(req.url ?? '/', url).searchParams.get('user.fields')?.split(',') ?? [];
    const { profile_image_url, ...basic } = user;
    return answer(200, { data: { ...basic, ...(fields.includes('profile_image_url') && profile_image_url ? { profile_image_url } : {}) } });
  }

  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', url).pathname;
    const fail = (err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    };
    if (path.startsWith('/interaction/')) {
      interaction(req, res).catch(fail);
    } else if (path === '/x-api/2/users/me' && req.method === 'GET') {
      usersMe(req, res).catch(fail);
    } else {
      if (path === '/token') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => tokenRequests.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') }));
      }
      void callback(req, res);
    }
  });

  return {
    url,
    authorizeUrl: `${url}/auth`,
    tokenUrl: `${url}/token`,
    apiBaseUrl,
    clientId,
    clientSecret,
    scopes,
    allowRedirectUri(uri) {
      redirectUris.add(uri);
      registerClient();
    },
    signInAs(user) {
      current = user;
    },
    denyNext() {
      deny = true;
    },
    usersMeCalls,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * A browser's cookie handling, just enough to walk the sign-in redirects from Node: cookies kept per
 * origin by name (a cleared one removed), sent back to that origin.
 */
export class RedirectWalker {
  private readonly jar = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    let cookies = this.jar.get(origin);
    if (!cookies) {
      cookies = new Map();
      this.jar.set(origin, cookies);
    }
    return cookies;
  }

  /** Sets a cookie as if an earlier answer had (a session the test already has). */
  set(origin: string, name: string, value: string): void {
    this.cookies(origin).set(name, value);
  }

  /** One GET with this origin's cookies, without following; keeps the cookies it sets. */
  async get(target: string): Promise<Response> {
    const { origin } = new URL(target);
    const cookie = [...this.cookies(origin)].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const cleared =
        value === '' || attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()));
      if (cleared) this.cookies(origin).delete(name);
      else this.cookies(origin).set(name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `start` until an answer is not a redirect or its Location satisfies `stop`;
   * answers every address visited and the last answer (its body read).
   */
  async walk(
    start: string,
    stop: (location: URL) => boolean = () => false,
    maxHops = 15,
  ): Promise<{ visited: string[]; last: Response; body: string; stoppedAt?: URL }> {
    const visited: string[] = [];
    let target = start;
    for (let hop = 0; hop < maxHops; hop += 1) {
      visited.push(target);
      const res = await this.get(target);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { visited, last: res, body: await res.text() };
      const next = new URL(location, target);
      if (stop(next)) return { visited, last: res, body: await res.text(), stoppedAt: next };
      await res.arrayBuffer();
      target = next.toString();
    }
    throw new Error(`more than ${maxHops} redirects from ${start}: ${visited.join(' → ')}`);
  }
}

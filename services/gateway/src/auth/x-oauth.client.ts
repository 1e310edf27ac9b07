import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@clipit/service-kit';
import type { GatewayConfig } from '../config.js';
import { XSignInFailure, xTokenAnswer, xUserAnswer, type XUser } from './x-oauth.js';

/**
 * The two calls to X of a sign-in: the code for an access token (HTTP Basic client authentication for a
 * confidential app, as X asks; the client id in the form for a public one), then the user behind it.
 * Every failure is an XSignInFailure naming which step failed; X's own words go to the log, not the page.
 */
@Injectable()
export class XOAuthClient {
  constructor(@Inject(CONFIG) private readonly config: GatewayConfig) {}

  async exchangeCode(p: { code: string; codeVerifier: string; redirectUri: string }): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: p.code,
      redirect_uri: p.redirectUri,
      code_verifier: p.codeVerifier,
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (this.config.X_OAUTH_CLIENT_SECRET) {
      // RFC 6749 §2.3.1: each part form-encoded before they are joined.
      const basic = `${encodeURIComponent(this.config.X_OAUTH_CLIENT_ID)}:${encodeURIComponent(this.config.X_OAUTH_CLIENT_SECRET)}`;
      headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
    } else {
      form.set('client_id', this.config.X_OAUTH_CLIENT_ID);
    }
    const body = await this.call('x-token', 'token exchange', this.config.X_OAUTH_TOKEN_URL, {
      method: 'POST',
      headers,
      body: form.toString(),
    });
    const parsed = xTokenAnswer.safeParse(body);
    if (!parsed.success) throw new XSignInFailure('x-token', 'X answered the token exchange without an access token');
    return parsed.data.access_token;
  }

  async currentUser(accessToken: string): Promise<XUser> {
    const url = `${this.config.X_API_BASE_URL}/2/users/me?user.fields=profile_image_url`;
    const body = await this.call('x-profile', 'users/me', url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    const parsed = xUserAnswer.safeParse(body);
    if (!parsed.success) throw new XSignInFailure('x-profile', 'X answered users/me without a usable user');
    return parsed.data.data;
  }

  private async call(code: 'x-token' | 'x-profile', step: string, url: string, init: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.config.X_OAUTH_TIMEOUT_MS) });
    } catch (err) {
      throw new XSignInFailure(code, `X's ${step} did not answer`, { cause: err });
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw new XSignInFailure(code, `X's ${step} answered ${res.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new XSignInFailure(code, `X's ${step} answered something that is not JSON`, { cause: err });
    }
  }
}

// Compile-time checks (tsc reads this file; Jest only runs it): the web apps' named API types are the
// generated ones, and the route helpers find a route's body and answer by its method and path.
import type { ApiAnswer, ApiRequestBody, CurrentUser, LoginRequest, Submission } from './api-types.js';
import type { components } from './generated/gateway-api.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_Check extends true>(): true => true;

describe('API types', () => {
  it('CurrentUser is the gateway document’s CurrentUser, and what GET /api/user/me answers', () => {
    expect([
      same<Equal<CurrentUser, components['schemas']['CurrentUser']>>(),
      same<Equal<ApiAnswer<'/api/user/me', 'get'>, CurrentUser>>(),
      same<Equal<ApiAnswer<'/api/auth/login', 'post'>, { user: CurrentUser }>>(),
      // The browser's user: the email is there, the event snapshot's claim fields are not.
      same<Equal<Extract<keyof CurrentUser, 'email' | 'claimedBy' | 'isPlaceholder'>, 'email'>>(),
    ]).not.toContain(false);
  });

  it('finds bodies and answers by route, 201 included, and nothing for a route the gateway lacks', () => {
    expect([
      same<Equal<ApiAnswer<'/api/submissions', 'post'>, Submission>>(),
      same<Equal<keyof LoginRequest, 'twitterHandle' | 'password'>>(),
      same<Equal<ApiRequestBody<'/api/user/me', 'get'>, never>>(),
      same<Equal<ApiAnswer<'/api/user/me', 'delete'>, never>>(),
    ]).not.toContain(false);
  });
});

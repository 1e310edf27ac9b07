import { Controller, Inject, UseGuards } from '@nestjs/common';
import { SESSION_CACHE, type SessionCache } from '../auth/session-cache.js';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { usersRoutes } from './users.routes.js';
import { toCurrentUser, type CurrentUser, type UpdateProfileBody } from './users.schemas.js';

@Controller()
@UseGuards(SessionGuard)
export class UsersController {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {}

  // The hot path: the guard already has the user (from the session cache, or its one ResolveSession call).
  @Endpoint(usersRoutes.me)
  me(@CurrentSession() session: SessionPrincipal): CurrentUser {
    return toCurrentUser(session.user);
  }

  @Endpoint(usersRoutes.authUser)
  authUser(@CurrentSession() session: SessionPrincipal): CurrentUser {
    return toCurrentUser(session.user);
  }

  @Endpoint(usersRoutes.updateProfile)
  async updateProfile(@CurrentSession() session: SessionPrincipal, @ValidBody() body: UpdateProfileBody): Promise<CurrentUser> {
    const user = await this.identity.updateWallet({ userId: session.user.id, walletAddress: body.walletAddress });
    // The next /api/user/me on this replica reads the new data; other replicas forget it on `user.updated`.
    this.sessions.invalidateUser(session.user.id);
    return toCurrentUser(user);
  }
}

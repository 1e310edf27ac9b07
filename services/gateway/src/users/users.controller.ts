import { Controller, Inject, UseGuards } from '@nestjs/common';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { usersRoutes } from './users.routes.js';
import { toCurrentUser, type CurrentUser, type UpdateProfileBody } from './users.schemas.js';

@Controller()
@UseGuards(SessionGuard)
export class UsersController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient) {}

  // The hot path: the guard's one ResolveSession call already answered the user.
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
    return toCurrentUser(await this.identity.updateWallet({ userId: session.user.id, walletAddress: body.walletAddress }));
  }
}

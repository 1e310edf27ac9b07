import { Inject, Injectable } from '@nestjs/common';
import { toCurrentUser, type CurrentUser } from '../auth/current-user.js';
import { SESSION_CACHE, type SessionCache } from '../auth/session-cache.js';
import type { SessionPrincipal } from '../auth/session.strategy.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { toActiveSession, type ActiveSessions, type UpdateProfileBody } from './users.schemas.js';

/** The signed-in account's payout wallet and sessions: identity decides, this replica's session cache keeps up. */
@Injectable()
export class AccountService {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
  ) {}

  async updateWallet(session: SessionPrincipal, body: UpdateProfileBody): Promise<CurrentUser> {
    const user = await this.identity.updateWallet({
      userId: session.user.id,
      walletAddress: body.walletAddress,
      currentPassword: body.currentPassword,
      sid: session.sid,
    });
    // The next /api/user/me on this replica reads the new data; other replicas forget it on `user.updated`.
    this.sessions.invalidateUser(session.user.id);
    return toCurrentUser(user);
  }

  async listSessions(session: SessionPrincipal): Promise<ActiveSessions> {
    const { sessions } = await this.identity.listSessions({ userId: session.user.id, sid: session.sid });
    return { sessions: (sessions ?? []).map(toActiveSession) };
  }

  async endOtherSessions(session: SessionPrincipal): Promise<{ endedSessions: number }> {
    const { endedSessions } = await this.identity.endOtherSessions({ userId: session.user.id, sid: session.sid });
    // This replica forgets the account's sessions now (this one is simply resolved again); the others on `user.sessions-ended`.
    this.sessions.invalidateUser(session.user.id);
    return { endedSessions };
  }
}

import type { identityV1 } from '@clipit/contracts';
import { conflict, isUuid, LOGGER, notFound, Outbox, uniqueViolation, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { messages } from '../domain/messages.js';
import { newXAccount, type XProfile } from '../domain/user.factory.js';
import { toUserMessage, toUserSnapshot } from '../domain/user.mapper.js';
import { decideXSignIn, parseXProfile } from '../domain/x-account.js';
import type { UserEntity } from '../entities/user.entity.js';
import { UserRepository } from '../repositories/user.repository.js';
import { SessionService } from './session.service.js';

/** A race another sign-in won: the X id or the handle was taken between our read and our write. */
const RACE_CONSTRAINTS = new Set(['users_x_user_id_key', 'users_twitter_username_account_key']);

/**
 * Sign in with X (ADR 0028): after the gateway's OAuth round trip, the X user is matched to an account
 * (by X id, then by handle), linked when it was not, or given a new account; then a session, as LogIn.
 * Every link publishes `user.x-linked`, a new account `user.registered` too, in the same transaction.
 */
@Injectable()
export class XSignInService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
    private readonly sessions: SessionService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async signIn(req: identityV1.SignInWithXRequest): Promise<identityV1.SignInWithXResponse> {
    const profile = parseXProfile(req);
    const linkUserId = req.linkUserId || undefined;
    if (linkUserId !== undefined && !isUuid(linkUserId)) throw notFound(messages.userNotFound);
    try {
      return await this.attempt(profile, linkUserId, req.client);
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (!constraint || !RACE_CONSTRAINTS.has(constraint)) throw err;
      // Two callbacks of one X user at once (two tabs): the loser finds what the winner wrote.
      this.logger.info({ xUserId: profile.xUserId, constraint }, 'sign-in with X lost a race; trying once more');
      try {
        return await this.attempt(profile, linkUserId, req.client);
      } catch (again) {
        if (uniqueViolation(again) === 'users_x_user_id_key') throw conflict(messages.xLinkedElsewhere);
        throw again;
      }
    }
  }

  private attempt(
    profile: XProfile,
    linkUserId: string | undefined,
    client: identityV1.ClientInfo | undefined,
  ): Promise<identityV1.SignInWithXResponse> {
    return this.transactions.run(async (tx) => {
      const linkTarget = linkUserId ? await this.users.getByIdForUpdate(tx, linkUserId) : undefined;
      if (linkTarget === null || linkTarget?.isPlaceholder === 'true') throw notFound(messages.userNotFound);
      const byXId = await this.users.findByXUserIdForUpdate(tx, profile.xUserId);
      const byHandle = !linkTarget && !byXId ? await this.users.findAccountByHandle(profile.xUsername, tx) : null;
      const decision = decideXSignIn(profile.xUserId, { byXId, byHandle, ...(linkTarget ? { linkTarget } : {}) });
      const now = new Date();
      switch (decision.kind) {
        case 'refuse':
          throw decision.error;
        case 'sign-in':
          return this.signedIn(tx, decision.user, client, { created: false, linked: false }, now);
        case 'link': {
          const linked: UserEntity = { ...decision.user, xUserId: profile.xUserId, xLinkedAt: now, updatedAt: now };
          await this.users.update(tx, linked.id, { xUserId: profile.xUserId, xLinkedAt: now, updatedAt: now });
          await this.appendLinked(tx, linked, profile);
          return this.signedIn(tx, linked, client, { created: false, linked: true }, now);
        }
        case 'create': {
          const user = newXAccount(profile, now);
          await this.users.insert(tx, user);
          await this.outbox.append(tx, 'user.registered', { user: toUserSnapshot(user), claimedPlaceholderId: null });
          await this.appendLinked(tx, user, profile);
          return this.signedIn(tx, user, client, { created: true, linked: true }, now);
        }
      }
    });
  }

  private async appendLinked(tx: EntityManager, user: UserEntity, profile: XProfile): Promise<void> {
    await this.outbox.append(tx, 'user.x-linked', {
      userId: user.id,
      xUserId: profile.xUserId,
      xUsername: profile.xUsername,
      linkedAt: (user.xLinkedAt ?? new Date()).toISOString(),
    });
  }

  private async signedIn(
    tx: EntityManager,
    user: UserEntity,
    client: identityV1.ClientInfo | undefined,
    outcome: { created: boolean; linked: boolean },
    now: Date,
  ): Promise<identityV1.SignInWithXResponse> {
    const session = await this.sessions.create(tx, user.id, client, 'x', now);
    return { user: toUserMessage(user), session, ...outcome };
  }
}

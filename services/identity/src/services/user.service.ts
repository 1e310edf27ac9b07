import type { identityV1 } from '@clipit/contracts';
import { WALLET_CHANGE_HOLD_HOURS } from '@clipit/field-rules';
import { CONFIG, forbidden, invalid, isUuid, notFound, Outbox, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { IdentityConfig } from '../config.js';
import { walletChangedMail } from '../domain/mails.js';
import { messages } from '../domain/messages.js';
import { toUserSnapshot, toStreamerSummary, toUserMessage } from '../domain/user.mapper.js';
import { parseProfileUpdate, requireWallet } from '../domain/validation.js';
import type { UserEntity } from '../entities/user.entity.js';
import { UserRepository } from '../repositories/user.repository.js';
import { MailService } from './mail.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { SessionService } from './session.service.js';

/** The most ids one GetUsers call may name (a page of the admin list is at most 200). */
export const GET_USERS_MAX = 500;

export type PublicField = 'displayName' | 'profileImageUrl' | 'bannerImageUrl' | 'walletAddress';

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** Reading users and changing one's own public data (wallet, profile, stream time). */
@Injectable()
export class UserService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly hasher: PasswordHasher,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  async getUser(req: identityV1.GetUserRequest): Promise<identityV1.User> {
    // A malformed id cannot name a user; answering NOT_FOUND keeps it from reaching Postgres as a cast error.
    const user = isUuid(req.id) ? await this.users.getById(req.id) : null;
    if (!user) throw notFound(messages.userNotFound);
    return toUserMessage(user);
  }

  /** Several users at once (the admin list names each submission's clipper); malformed or unknown ids are left out. */
  async getUsers(req: identityV1.GetUsersRequest): Promise<identityV1.GetUsersResponse> {
    const ids = [...new Set(req.ids ?? [])];
    if (ids.length > GET_USERS_MAX) throw invalid(`At most ${GET_USERS_MAX} ids per call`);
    return { users: (await this.users.getByIds(ids.filter(isUuid))).map(toUserMessage) };
  }

  /**
   * Sets the payout wallet (ADR 0032). The first one needs nothing more; replacing one needs the current
   * password or, for an account without one, a sign-in with X in the last 10 minutes on the calling session.
   * The proof is checked before the row is locked (a password hash takes a while), and the locked row is
   * checked again: a wallet that appeared meanwhile needs the proof too. A replacement stamps
   * wallet_changed_at and mails the owner, in the transaction of the change.
   */
  async updateWallet(req: identityV1.UpdateWalletRequest): Promise<identityV1.User> {
    const walletAddress = requireWallet(req.walletAddress, messages.walletRequired);
    const user = isUuid(req.userId) ? await this.users.getById(req.userId) : null;
    if (!user) throw notFound(messages.userNotFound);
    const proven = user.walletAddress !== null && user.walletAddress !== walletAddress && (await this.proveOwner(user, req));
    return this.transactions.run(async (tx: EntityManager) => {
      let previous: string | null = null;
      const updated = await this.patchUser(tx, user.id, { walletAddress }, (locked) => {
        previous = locked.walletAddress;
        if (locked.walletAddress !== null && locked.walletAddress !== walletAddress && !proven) throw forbidden(this.missingProof(locked));
      });
      // An existing wallet replaced (patchUser stamped walletChangedAt): the owner is told.
      if (previous !== null && previous !== walletAddress && updated.email) {
        const at = new Date(updated.walletChangedAt!);
        const payoutsFrom = new Date(at.getTime() + WALLET_CHANGE_HOLD_HOURS * 3_600_000);
        const recoverUrl = `${this.config.PUBLIC_SITE_URL}/login`;
        await this.mail.queue(
          tx,
          walletChangedMail(updated.email, updated.twitterUsername ?? 'you', {
            from: previous,
            to: walletAddress,
            at,
            payoutsFrom,
            recoverUrl,
          }),
          at,
        );
      }
      return updated;
    });
  }

  /** Whether the request proves it is the owner's (true), or throws the 403 that says what is missing. */
  private async proveOwner(user: UserEntity, req: identityV1.UpdateWalletRequest): Promise<true> {
    if (await this.sessions.isRecentXSignIn(user.id, req.sid)) return true;
    if (user.passwordHash && req.currentPassword) {
      if (await this.hasher.verify('wallet-password', req.currentPassword, user.passwordHash)) return true;
      throw forbidden(messages.walletPasswordIncorrect);
    }
    throw forbidden(this.missingProof(user));
  }

  private missingProof(user: UserEntity): string {
    return user.passwordHash ? messages.walletPasswordRequired : messages.walletXSignInRequired;
  }

  async updateProfile(req: identityV1.UpdateProfileRequest): Promise<identityV1.User> {
    const patch = parseProfileUpdate(req);
    return this.applyPatch(req.userId, patch);
  }

  async listStreamers(): Promise<identityV1.ListStreamersResponse> {
    return { streamers: (await this.users.listStreamers()).map(toStreamerSummary) };
  }

  private async applyPatch(userId: string, patch: Partial<Pick<UserEntity, PublicField>>): Promise<identityV1.User> {
    if (!isUuid(userId)) throw notFound(messages.userNotFound);
    return this.transactions.run((tx: EntityManager) => this.patchUser(tx, userId, patch));
  }

  /**
   * Applies the fields that really change, under a row lock, with one `user.updated` event naming
   * them, inside the caller's transaction (a command that writes more, such as using an image upload,
   * commits it all at once). `check` sees the locked row first. Nothing changed: no write and no event.
   */
  async patchUser(
    tx: EntityManager,
    userId: string,
    patch: Partial<Pick<UserEntity, PublicField>>,
    check?: (user: UserEntity) => void,
  ): Promise<identityV1.User> {
    const user = await this.users.getByIdForUpdate(tx, userId);
    if (!user) throw notFound(messages.userNotFound);
    check?.(user);
    const changed = (Object.keys(patch) as PublicField[]).filter((field) => !sameValue(user[field], patch[field]));
    if (changed.length === 0) return toUserMessage(user);
    const now = new Date();
    const values: Partial<UserEntity> = { updatedAt: now };
    for (const field of changed) Object.assign(values, { [field]: patch[field] });
    // An existing wallet replaced: payouts to the new one wait (rewards reads this from the event).
    if (changed.includes('walletAddress') && user.walletAddress !== null) values.walletChangedAt = now;
    await this.users.update(tx, user.id, values);
    const updated: UserEntity = { ...user, ...values };
    await this.outbox.append(tx, 'user.updated', { user: toUserSnapshot(updated), changed });
    return toUserMessage(updated);
  }
}

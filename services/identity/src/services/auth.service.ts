import { randomBytes, randomUUID } from 'node:crypto';
import { mediaKeys, type identityV1 } from '@clipit/contracts';
import { PASSWORD_MAX_LENGTH } from '@clipit/field-rules';
import {
  CONFIG,
  conflict,
  invalid,
  isUuid,
  LOGGER,
  newSecretToken,
  notFound,
  Outbox,
  secretTokenHash,
  TransactionRunner,
  unauthenticated,
  uniqueViolation,
} from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config.js';
import { messages } from '../domain/messages.js';
import { isLinkToken, linkTo, RESET_LINK_TTL_MS } from '../domain/link-token.js';
import { passwordResetMail } from '../domain/mails.js';
import { newAccount, newStreamerToken } from '../domain/user.factory.js';
import { toTokenSnapshot, toUserMessage, toUserSnapshot } from '../domain/user.mapper.js';
import { parseLogIn, parseResetPassword, parseSignUp, type SignUpInput } from '../domain/validation.js';
import type { PasswordResetRequestEntity } from '../entities/email-link.entity.js';
import type { UserEntity } from '../entities/user.entity.js';
import { EmailLinkRepository } from '../repositories/email-link.repository.js';
import { PasswordResetRepository } from '../repositories/password-reset.repository.js';
import { StorageRepository } from '../repositories/storage.repository.js';
import { TokenRepository } from '../repositories/token.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { EmailVerificationService } from './email-verification.service.js';
import { MailService } from './mail.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { clientIp, SessionService, type ActiveSession } from './session.service.js';

/** Reset links mailed to one account within an hour, at most; past it a request still answers the same. */
export const RESET_LINKS_PER_HOUR = 5;
/** Reset requests matched per transaction. */
const RESET_MATCH_BATCH = 100;
/** The most sessions one ResolveSessions call may name (the gateway asks for at most 100 at a time). */
export const RESOLVE_SESSIONS_MAX = 500;

/** Unique indexes whose violation means a person lost a race for a handle or an email. */
const CONFLICT_BY_CONSTRAINT: Record<string, string> = {
  users_twitter_username_account_key: messages.handleTaken,
  users_email_key: messages.emailTaken,
};

/** Sign-up (with an optional profile claim), log-in and out, sessions and password reset. */
@Injectable()
export class AuthService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly tokens: TokenRepository,
    private readonly resets: PasswordResetRepository,
    private readonly outbox: Outbox,
    private readonly storage: StorageRepository,
    private readonly sessions: SessionService,
    private readonly links: EmailLinkRepository,
    private readonly mail: MailService,
    private readonly verification: EmailVerificationService,
    private readonly hasher: PasswordHasher,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Everything is checked before anything is written; the picture is stored before the
   * transaction and removed again if the transaction does not commit, so nothing is left behind. When
   * the hashing line is full it is refused before any of that (UNAVAILABLE with a retry-after, ADR 0044).
   */
  async signUp(req: identityV1.SignUpRequest): Promise<identityV1.AuthResult> {
    const input = parseSignUp(req);
    this.hasher.assertRoom('sign-up');
    await this.assertAvailable(input);

    const passwordHash = await this.hasher.hash('sign-up', input.password);
    const userId = randomUUID();
    let pictureKey: string | undefined;
    if (input.picture) {
      pictureKey = mediaKeys.profileImage(userId, randomBytes(8).toString('hex'), input.picture.image.ext);
      await this.storage.put(pictureKey, input.picture.bytes, input.picture.image.mime);
    }

    try {
      return await this.transactions.run(async (tx) => {
        // Checked again under a row lock: two sign-ups with one code cannot both claim it.
        const placeholder = input.claimCode ? await this.users.findPlaceholderByClaimCode(input.claimCode, tx) : null;
        if (input.claimCode && !placeholder) throw invalid(messages.claimCodeInvalid);
        if (placeholder?.claimedBy) throw invalid(messages.claimCodeUsed);

        const now = new Date();
        const pictureUrl = pictureKey ? `${this.config.MEDIA_PUBLIC_BASE_URL}/${pictureKey}` : null;
        const { email, handle, walletAddress, role, displayName } = input;
        const user = newAccount({ email, passwordHash, handle, walletAddress, role, displayName, pictureUrl }, placeholder, now, userId);
        await this.users.insert(tx, user);

        let claimed: UserEntity | undefined;
        if (placeholder) {
          claimed = { ...placeholder, claimedBy: user.id, claimedAt: now, updatedAt: now };
          await this.users.update(tx, placeholder.id, { claimedBy: user.id, claimedAt: now, updatedAt: now });
        }

        const token = input.role === 'streamer' && input.tokenLink ? newStreamerToken(user, input.tokenLink, now) : undefined;
        if (token) await this.tokens.insert(tx, token);

        const session = await this.sessions.create(tx, user.id, req.client, 'password', now);
        // The address is verified by a link mailed now (ADR 0031); until then no reset link goes to it.
        await this.verification.queueLink(tx, user, now);
        await this.outbox.append(tx, 'user.registered', { user: toUserSnapshot(user), claimedPlaceholderId: claimed?.id ?? null });
        if (claimed) await this.outbox.append(tx, 'user.updated', { user: toUserSnapshot(claimed), changed: ['claimedBy', 'claimedAt'] });
        if (token) await this.outbox.append(tx, 'token.changed', { token: toTokenSnapshot(token) });

        return {
          user: toUserMessage(user),
          session,
          claimedProfile: claimed ? { id: claimed.id, displayName: claimed.displayName ?? claimed.twitterUsername ?? '' } : undefined,
        };
      });
    } catch (err) {
      if (pictureKey) {
        await this.storage
          .delete(pictureKey)
          .catch((e: unknown) => this.logger.error({ err: e, key: pictureKey }, 'could not remove the picture of a failed sign-up'));
      }
      const constraint = uniqueViolation(err);
      const message = constraint ? CONFLICT_BY_CONSTRAINT[constraint] : undefined;
      throw message ? conflict(message) : err;
    }
  }

  /** Reads only: answers the first reason the sign-up cannot go ahead. */
  private async assertAvailable(input: SignUpInput): Promise<void> {
    if (await this.users.accountHandleExists(input.handle)) throw conflict(messages.handleTaken);
    if (await this.users.emailExists(input.email)) throw conflict(messages.emailTaken);
    if (input.claimCode) {
      const placeholder = await this.users.findPlaceholderByClaimCode(input.claimCode);
      if (!placeholder) throw invalid(messages.claimCodeInvalid);
      if (placeholder.claimedBy) throw invalid(messages.claimCodeUsed);
    }
  }

  async logIn(req: identityV1.LogInRequest): Promise<identityV1.AuthResult> {
    const { handle, password } = parseLogIn(req);
    // Longer than any password we accept: refuse before spending a hash on it.
    if (password.length > PASSWORD_MAX_LENGTH) throw unauthenticated(messages.badCredentials);
    // A full line refuses before the lookup, alike whether or not the handle exists (ADR 0044).
    this.hasher.assertRoom('log-in');
    const user = await this.users.findAccountByHandle(handle);
    const ok = user?.passwordHash
      ? await this.hasher.verify('log-in', password, user.passwordHash)
      : await this.hasher.verifyUnknown('log-in', password);
    if (!user?.passwordHash || !ok) throw unauthenticated(messages.badCredentials);

    const rehash = await this.hasher.rehashIfDue(password, user.passwordHash);
    const session = await this.transactions.run(async (tx) => {
      if (rehash) await this.users.update(tx, user.id, { passwordHash: rehash });
      return this.sessions.create(tx, user.id, req.client, 'password');
    });
    return { user: toUserMessage(user), session };
  }

  /** Ends the session with a `session.ended` event in the same transaction: every gateway forgets it (ADR 0004). */
  async logOut(req: identityV1.LogOutRequest): Promise<identityV1.LogOutResponse> {
    const ended = await this.transactions.run(async (tx) => {
      const session = await this.sessions.end(tx, req.sid);
      if (session) await this.outbox.append(tx, 'session.ended', { userId: session.userId, sessionKey: session.key, reason: 'logout' });
      return session !== undefined;
    });
    return { ended };
  }

  /** The account's active sessions (the Profile tab), the caller's marked current. */
  async listSessions(req: identityV1.ListSessionsRequest): Promise<identityV1.ListSessionsResponse> {
    if (!isUuid(req.userId)) throw notFound(messages.userNotFound);
    return { sessions: await this.sessions.list(req.userId, req.sid) };
  }

  /** "Sign out everywhere else": every other session of the account ends, and every gateway forgets them (`user.sessions-ended`). */
  async endOtherSessions(req: identityV1.EndOtherSessionsRequest): Promise<identityV1.EndOtherSessionsResponse> {
    if (!isUuid(req.userId)) throw notFound(messages.userNotFound);
    const ended = await this.transactions.run(async (tx) => {
      const count = await this.sessions.endOthers(tx, req.userId, req.sid);
      if (count > 0)
        await this.outbox.append(tx, 'user.sessions-ended', { userId: req.userId, reason: 'signed-out-elsewhere', endedSessions: count });
      return count;
    });
    this.logger.info({ userId: req.userId, endedSessions: ended }, 'signed out everywhere else');
    return { endedSessions: ended };
  }

  async resolveSession(req: identityV1.ResolveSessionRequest): Promise<identityV1.User> {
    return toUserMessage((await this.sessions.resolve(req.sid)).user);
  }

  async resolveSessionWithExpiry(req: identityV1.ResolveSessionWithExpiryRequest): Promise<identityV1.ResolvedSession> {
    return toResolvedSession(req.sid, await this.sessions.resolve(req.sid));
  }

  /** Many sessions at once (the gateway's refresh ahead), each as resolveSessionWithExpiry answers it; the dead ones left out. */
  async resolveSessions(req: identityV1.ResolveSessionsRequest): Promise<identityV1.ResolveSessionsResponse> {
    const sids = [...new Set(req.sids ?? [])];
    if (sids.length > RESOLVE_SESSIONS_MAX) throw invalid(`At most ${RESOLVE_SESSIONS_MAX} sessions per call`);
    const sessions: identityV1.ResolvedSession[] = [];
    for (const [sid, session] of await this.sessions.resolveMany(sids)) sessions.push(toResolvedSession(sid, session));
    return { sessions };
  }

  /**
   * Password reset by e-mailed link (ADR 0031, 0032), step one: the new password is hashed at once (never
   * kept in clear), and the request is written as it was asked, one row, before anything is looked up. The
   * work is the same for every request, so the answer takes as long whether or not an account matches:
   * matching, and mailing a link to a verified address, happen after the answer (`matchPendingResets`).
   */
  async requestPasswordReset(req: identityV1.RequestPasswordResetRequest): Promise<identityV1.RequestPasswordResetResponse> {
    const input = parseResetPassword(req);
    const passwordHash = await this.hasher.hash('reset-request', input.newPassword);
    const now = new Date();
    await this.transactions.run((tx) =>
      this.links.insertResetRequest(tx, {
        id: randomUUID(),
        userId: null,
        tokenHash: null,
        passwordHash,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS),
        usedAt: null,
        ip: clientIp(req.client),
        handle: input.handle,
        email: input.email,
        processedAt: null,
      }),
    );
    return {};
  }

  /**
   * Matches the reset requests written since the last round (the mail loop runs this before it delivers).
   * Only a request naming an account whose address was verified when it was asked, under
   * RESET_LINKS_PER_HOUR links that hour, gets a one-time link, mailed in the transaction that records it;
   * any other keeps only when and from where. A request left unmatched past its link's lifetime (the loop was down) is dropped.
   */
  async matchPendingResets(now: () => Date = () => new Date()): Promise<number> {
    let matched = 0;
    for (;;) {
      const round = await this.transactions.run(async (tx) => {
        const pending = await this.links.lockPendingResetRequests(tx, RESET_MATCH_BATCH);
        for (const request of pending) {
          const at = now();
          const user = request.expiresAt > at ? await this.users.findAccountByHandleAndEmail(request.handle!, request.email!) : null;
          const refusal = await this.resetRefusal(request, user, at);
          if (refusal) {
            await this.links.settleResetRequest(tx, request.id, null, at);
          } else {
            const { token, hash } = newSecretToken();
            await this.links.settleResetRequest(tx, request.id, { userId: user!.id, tokenHash: hash }, at);
            const link = linkTo(this.config.PUBLIC_SITE_URL, '/reset-password', token);
            await this.mail.queue(
              tx,
              passwordResetMail(user!.email!, user!.twitterUsername ?? request.handle!, link, request.expiresAt),
              at,
            );
          }
          this.logger.info({ userId: user?.id, linkMailed: !refusal, reason: refusal }, 'password reset request matched');
        }
        return pending.length;
      });
      matched += round;
      if (round < RESET_MATCH_BATCH) return matched;
    }
  }

  /** Why a pending request gets no link, or undefined when it does: `user` is the account it names, if any. */
  private async resetRefusal(request: PasswordResetRequestEntity, user: UserEntity | null, at: Date): Promise<string | undefined> {
    if (request.expiresAt <= at) return 'expired before it was matched';
    if (!user) return 'no account matched';
    // Verified when it was asked: a request made before the owner confirmed the address gets no link.
    if (!user.email || !user.emailVerifiedAt || user.emailVerifiedAt > request.createdAt) return 'address not verified';
    const linksThisHour = await this.links.countResetLinksSince(user.id, new Date(at.getTime() - 3_600_000));
    return linksThisHour >= RESET_LINKS_PER_HOUR ? 'hourly limit' : undefined;
  }

  /**
   * Step two, from the link: the password asked for replaces the old one, every session of the account
   * ends (the gateways forget theirs through `user.sessions-ended`), and every other link of the account
   * stops working. A token unknown, used or expired changes nothing.
   */
  async confirmPasswordReset(req: identityV1.ConfirmPasswordResetRequest): Promise<identityV1.ConfirmPasswordResetResponse> {
    if (!isLinkToken(req.token)) throw invalid(messages.resetLinkInvalid);
    const now = new Date();
    const done = await this.transactions.run(async (tx) => {
      const request = await this.links.lockResetRequest(tx, secretTokenHash(req.token));
      if (!request?.userId || !request.passwordHash || request.usedAt || request.expiresAt <= now) return undefined;
      await this.users.update(tx, request.userId, { passwordHash: request.passwordHash, updatedAt: now });
      await this.links.useResetRequests(tx, request.userId, now);
      await this.resets.record(tx, { userId: request.userId, at: now, ip: clientIp(req.client) });
      const ended = await this.sessions.endAllForUser(tx, request.userId);
      await this.outbox.append(tx, 'user.sessions-ended', { userId: request.userId, reason: 'password-reset', endedSessions: ended });
      return { userId: request.userId, ended };
    });
    if (!done) throw invalid(messages.resetLinkInvalid);
    this.logger.info({ userId: done.userId, endedSessions: done.ended }, 'password reset by link');
    return { endedSessions: done.ended, userId: done.userId };
  }
}

/** A live session as ResolveSessionWithExpiry and ResolveSessions answer it. */
function toResolvedSession(sid: string, { user, expiresAt, renewed }: ActiveSession): identityV1.ResolvedSession {
  return { user: toUserMessage(user), session: { sid, expiresAt: expiresAt.toISOString() }, renewed };
}

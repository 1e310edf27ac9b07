import type { identityV1 } from '@clipit/contracts';
import { isHandle, isHttpUrl, isXUserId, normalizeHandle } from '@clipit/field-rules';
import { failedPrecondition, conflict, invalid, type DomainError } from '@clipit/service-kit';
import type { UserEntity } from '../entities/user.entity.js';
import { messages } from './messages.js';
import type { XProfile } from './user.factory.js';

const DISPLAY_NAME_MAX = 100;

/** The X user the gateway read, checked: a numeric id and a valid handle are required; name and picture are kept only when usable. */
export function parseXProfile(req: Pick<identityV1.SignInWithXRequest, 'xUserId' | 'xUsername' | 'name' | 'profileImageUrl'>): XProfile {
  const xUsername = normalizeHandle(req.xUsername);
  if (!isXUserId(req.xUserId) || !isHandle(xUsername)) throw invalid(messages.xProfileInvalid);
  const name = req.name?.trim().slice(0, DISPLAY_NAME_MAX) || null;
  const picture = req.profileImageUrl?.trim() ?? '';
  return { xUserId: req.xUserId, xUsername, name, profileImageUrl: picture && isHttpUrl(picture) ? picture : null };
}

/** What a sign-in with X does, decided from the accounts it could mean. */
export type XSignInDecision =
  /** The account is already linked to this X user: just a new session. */
  | { kind: 'sign-in'; user: UserEntity }
  /** Link this X user to the account, then a session. */
  | { kind: 'link'; user: UserEntity }
  /** No account fits: a new one for this X user. */
  | { kind: 'create' }
  | { kind: 'refuse'; error: DomainError };

export interface XSignInCandidates {
  /** The account linked to this X user id, if any. */
  byXId: UserEntity | null;
  /** The real account (never a placeholder) whose handle is the X username, case-insensitively; only looked up when no account has the X id. */
  byHandle: UserEntity | null;
  /** The signed-in account that asked to link X (absent when nobody is signed in). */
  linkTarget?: UserEntity;
}

/**
 * The rules of ADR 0028. Signed out: the account with the X id, else the account with the X handle
 * (linked now, unless it is linked to another X id: the handle changed hands on X), else a new one.
 * Signed in (linkTarget): the account is linked once; another X id on it, or this X id on another
 * account, is refused rather than moved.
 */
export function decideXSignIn(xUserId: string, { byXId, byHandle, linkTarget }: XSignInCandidates): XSignInDecision {
  if (linkTarget) {
    if (linkTarget.xUserId === xUserId) return { kind: 'sign-in', user: linkTarget };
    if (linkTarget.xUserId) return { kind: 'refuse', error: failedPrecondition(messages.accountLinkedToOtherX) };
    if (byXId) return { kind: 'refuse', error: conflict(messages.xLinkedElsewhere) };
    return { kind: 'link', user: linkTarget };
  }
  if (byXId) return { kind: 'sign-in', user: byXId };
  if (byHandle) {
    if (byHandle.xUserId) return { kind: 'refuse', error: failedPrecondition(messages.handleLinkedToOtherX) };
    return { kind: 'link', user: byHandle };
  }
  return { kind: 'create' };
}

import type { SocialPerson, UserSnapshot, identityV1, socialV1 } from '@clipit/contracts';

/** A user as social keeps them (the people read model): enough to check a rule and to list them. */
export interface PersonRow {
  id: string;
  role: 'user' | 'clipper' | 'streamer' | 'admin';
  displayName: string | null;
  twitterUsername: string | null;
  profileImageUrl: string | null;
  /** The source's updatedAt: a change older than the row's is ignored. */
  sourceUpdatedAt: Date;
}

const ROLES = new Set<PersonRow['role']>(['user', 'clipper', 'streamer', 'admin']);

export function personFromSnapshot(u: UserSnapshot): PersonRow {
  return {
    id: u.id,
    role: u.role,
    displayName: u.displayName,
    twitterUsername: u.twitterUsername,
    profileImageUrl: u.profileImageUrl,
    sourceUpdatedAt: new Date(u.updatedAt),
  };
}

/** From identity's GetUser answer (the fallback when the event has not reached social yet). */
export function personFromIdentity(u: identityV1.User): PersonRow {
  return {
    id: u.id,
    role: ROLES.has(u.role as PersonRow['role']) ? (u.role as PersonRow['role']) : 'user',
    displayName: u.displayName ?? null,
    twitterUsername: u.twitterUsername ?? null,
    profileImageUrl: u.profileImageUrl ?? null,
    sourceUpdatedAt: new Date(u.updatedAt),
  };
}

export function toPersonMessage(p: Pick<PersonRow, 'id' | 'displayName' | 'twitterUsername' | 'profileImageUrl'>): socialV1.Person {
  return {
    id: p.id,
    ...(p.displayName !== null ? { displayName: p.displayName } : {}),
    ...(p.twitterUsername !== null ? { twitterUsername: p.twitterUsername } : {}),
    ...(p.profileImageUrl !== null ? { profileImageUrl: p.profileImageUrl } : {}),
  };
}

export function toSocialPerson(p: PersonRow): SocialPerson {
  return { id: p.id, displayName: p.displayName, twitterUsername: p.twitterUsername, profileImageUrl: p.profileImageUrl };
}

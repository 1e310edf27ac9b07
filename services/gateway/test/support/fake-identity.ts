import * as grpc from '@grpc/grpc-js';
import { identityContract, type identityV1 } from '@clipit/contracts';
import { grpcError as err, startFakeGrpcServer, type FakeGrpcServer, type FakeHandler } from '@clipit/testing';
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * An in-memory identity gRPC server for the gateway's own HTTP tests: it speaks the real proto, keeps
 * users and sessions in maps, and records every call (with its metadata) so tests can assert what the
 * gateway sent. The real service is exercised by the journeys under e2e/.
 */
export interface FakeIdentity extends Omit<FakeGrpcServer, 'stop'> {
  users: Map<string, identityV1.User & { password: string }>;
  sessions: Map<string, string>;
  renewals: Set<string>;
  /** Reset links asked for and not yet used: token → the account and the password it sets (the real one mails the token). */
  resetLinks: Map<string, { userId: string; password: string }>;
  close(): Promise<void>;
}

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const users = new Map<string, identityV1.User & { password: string }>();
  const sessions = new Map<string, string>();
  // Session ids whose next resolution answers renewed: true, as identity does past half the TTL.
  const renewals = new Set<string>();
  const tokens: identityV1.Token[] = [];
  const resetLinks = new Map<string, { userId: string; password: string }>();
  // userId → the X user id it signs in with.
  const xLinks = new Map<string, string>();

  const session = (userId: string): identityV1.Session => {
    const sid = randomBytes(32).toString('base64url');
    sessions.set(sid, userId);
    return { sid, expiresAt: new Date(Date.now() + 14 * 24 * 3600 * 1000).toISOString() };
  };
  const publicUser = (u: identityV1.User & { password: string }): identityV1.User => {
    const { password: _p, ...rest } = u;
    return rest;
  };
  const byHandle = (h: unknown) =>
    [...users.values()].find((u) => u.twitterUsername?.toLowerCase() === String(h).replace(/^@/, '').toLowerCase());

  const handlers: Record<string, FakeHandler> = {
    SignUp: (r) => {
      if (byHandle(r['twitterHandle'])) throw err(grpc.status.ALREADY_EXISTS, 'That Twitter handle is already registered');
      const now = new Date().toISOString();
      const id = randomUUID();
      const user = {
        id,
        email: String(r['email']),
        displayName: (r['displayName'] as string | undefined) ?? undefined,
        twitterUsername: String(r['twitterHandle']).replace(/^@/, ''),
        walletAddress: String(r['walletAddress']),
        role: String(r['role']),
        currentTier: 1,
        isLive: 'false',
        streamerMultiplier: '1.00',
        isPlaceholder: 'false',
        createdAt: now,
        updatedAt: now,
        password: String(r['password']),
        ...(r['profilePicture'] ? { profileImageUrl: `/media/profile-images/${id}.png` } : {}),
      };
      users.set(id, user);
      return { user: publicUser(user), session: session(id) };
    },
    LogIn: (r) => {
      const user = byHandle(r['twitterHandle']);
      if (!user || !user.password || user.password !== r['password'])
        throw err(grpc.status.UNAUTHENTICATED, 'Invalid Twitter handle or password');
      return { user: publicUser(user), session: session(user.id) };
    },
    // Sign in with X, by the rules of identity's decideXSignIn (the real one is proved in identity's and e2e's tests).
    SignInWithX: (r) => {
      const xUserId = String(r['xUserId']);
      const linkTo = r['linkUserId'] ? users.get(String(r['linkUserId'])) : undefined;
      const byX = [...users.values()].find((u) => xLinks.get(u.id) === xUserId);
      if (linkTo) {
        if (xLinks.get(linkTo.id) === xUserId)
          return { user: publicUser(linkTo), session: session(linkTo.id), created: false, linked: false };
        if (xLinks.has(linkTo.id)) throw err(grpc.status.FAILED_PRECONDITION, 'Your account is already linked to a different X account');
        if (byX) throw err(grpc.status.ALREADY_EXISTS, 'This X account is already linked to another CLIP IT account');
        xLinks.set(linkTo.id, xUserId);
        return { user: publicUser(linkTo), session: session(linkTo.id), created: false, linked: true };
      }
      if (byX) return { user: publicUser(byX), session: session(byX.id), created: false, linked: false };
      const byName = byHandle(r['xUsername']);
      if (byName && xLinks.has(byName.id))
        throw err(grpc.status.FAILED_PRECONDITION, 'The CLIP IT account with this X handle is linked to a different X account');
      if (byName) {
        xLinks.set(byName.id, xUserId);
        return { user: publicUser(byName), session: session(byName.id), created: false, linked: true };
      }
      const now = new Date().toISOString();
      const id = randomUUID();
      const user = {
        id,
        displayName: (r['name'] as string | undefined) ?? undefined,
        profileImageUrl: (r['profileImageUrl'] as string | undefined) ?? undefined,
        twitterUsername: String(r['xUsername']),
        role: 'clipper',
        currentTier: 1,
        isLive: 'false',
        streamerMultiplier: '1.00',
        isPlaceholder: 'false',
        createdAt: now,
        updatedAt: now,
        password: '',
      };
      users.set(id, user);
      xLinks.set(id, xUserId);
      return { user: publicUser(user), session: session(id), created: true, linked: true };
    },
    LogOut: (r) => ({ ended: sessions.delete(String(r['sid'])) }),
    ResolveSessionWithExpiry: (r) => {
      const sid = String(r['sid']);
      const userId = sessions.get(sid);
      const user = userId ? users.get(userId) : undefined;
      if (!user) throw err(grpc.status.UNAUTHENTICATED, 'Not signed in');
      const renewed = renewals.delete(sid);
      return {
        user: publicUser(user),
        session: { sid, expiresAt: new Date(Date.now() + (renewed ? 14 : 7) * 24 * 3600 * 1000).toISOString() },
        renewed,
      };
    },
    ResolveSession: (r) => {
      const userId = sessions.get(String(r['sid']));
      const user = userId ? users.get(userId) : undefined;
      if (!user) throw err(grpc.status.UNAUTHENTICATED, 'Not signed in');
      return publicUser(user);
    },
    RequestPasswordReset: (r) => {
      const user = byHandle(r['twitterHandle']);
      if (user && user.email === r['email'])
        resetLinks.set(randomBytes(32).toString('base64url'), { userId: user.id, password: String(r['newPassword']) });
      return {};
    },
    ConfirmPasswordReset: (r) => {
      const link = resetLinks.get(String(r['token']));
      const user = link ? users.get(link.userId) : undefined;
      if (!link || !user) throw err(grpc.status.INVALID_ARGUMENT, 'This password reset link is invalid or has expired');
      resetLinks.delete(String(r['token']));
      user.password = link.password;
      let ended = 0;
      for (const [sid, uid] of sessions) if (uid === user.id && sessions.delete(sid)) ended += 1;
      return { endedSessions: ended, userId: user.id };
    },
    // The guard by identity's rules for password accounts (the X sign-in window is proved in identity's tests).
    UpdateWallet: (r) => {
      const user = users.get(String(r['userId']));
      if (!user) throw err(grpc.status.NOT_FOUND, 'User not found');
      const walletAddress = String(r['walletAddress']);
      if (user.walletAddress && user.walletAddress !== walletAddress) {
        if (!r['currentPassword']) throw err(grpc.status.PERMISSION_DENIED, 'Enter your current password to change your wallet address');
        if (r['currentPassword'] !== user.password) throw err(grpc.status.PERMISSION_DENIED, 'Current password is incorrect');
        user.walletChangedAt = new Date().toISOString();
      }
      user.walletAddress = walletAddress;
      return publicUser(user);
    },
    ListSessions: (r) => ({
      sessions: [...sessions]
        .filter(([, uid]) => uid === r['userId'])
        .map(([sid]) => ({
          id: sid.slice(0, 22),
          device: 'Chrome on Linux',
          address: '127.0.0.0/24',
          createdAt: new Date().toISOString(),
          lastSeenAt: new Date().toISOString(),
          method: 'password',
          current: sid === r['sid'],
        })),
    }),
    EndOtherSessions: (r) => {
      let ended = 0;
      for (const [sid, uid] of sessions) if (uid === r['userId'] && sid !== r['sid'] && sessions.delete(sid)) ended += 1;
      return { endedSessions: ended };
    },
    ListTokens: () => ({ tokens: tokens.filter((t) => t.isActive === 'true') }),
    // Tokens kept as given: the gateway checks the rules before it calls (identity checks them again).
    ListMyTokens: (r) => ({ tokens: tokens.filter((t) => t.streamerId === r['userId']) }),
    CreateToken: (r) => {
      const token: identityV1.Token = {
        id: randomUUID(),
        streamerId: String(r['userId']),
        name: String(r['name']),
        pumpFunLink: String(r['pumpFunLink']),
        ...(r['description'] ? { description: String(r['description']) } : {}),
        isActive: (r['isActive'] as string | undefined) ?? 'true',
      };
      tokens.push(token);
      return token;
    },
    UpdateToken: (r) => {
      const token = tokens.find((t) => t.id === r['id']);
      if (!token) throw err(grpc.status.NOT_FOUND, 'Token not found');
      if (token.streamerId !== r['userId']) throw err(grpc.status.PERMISSION_DENIED, 'You can only change your own tokens');
      for (const field of ['name', 'pumpFunLink', 'description', 'isActive'] as const) {
        if (typeof r[field] === 'string') token[field] = r[field];
      }
      return token;
    },
    ListStreamers: () => ({
      streamers: [...users.values()]
        .filter((u) => u.role === 'streamer')
        .map((u) => ({ id: u.id, displayName: u.displayName, twitterUsername: u.twitterUsername })),
    }),
  };

  const server = await startFakeGrpcServer(identityContract, handlers);
  tokens.push({ id: randomUUID(), streamerId: randomUUID(), name: '$FAKE', pumpFunLink: 'https://pump.fun/fake', isActive: 'true' });
  const { stop, ...fake } = server;
  return { ...fake, users, sessions, renewals, resetLinks, close: stop };
}

import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { identityV1, protoFile, protoRoot } from '@clipit/contracts';
import { protoLoaderOptions } from '@clipit/service-kit';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';

/**
 * An in-memory identity gRPC server for the gateway's own HTTP tests: it speaks the real proto, keeps
 * users and sessions in maps, and records every call (with its metadata) so tests can assert what the
 * gateway sent. The real service is exercised by the journeys under e2e/.
 */
export interface FakeIdentity {
  url: string;
  calls: { method: string; request: Record<string, unknown>; correlationId: string | undefined }[];
  users: Map<string, identityV1.User & { password: string }>;
  sessions: Map<string, string>;
  renewals: Set<string>;
  /** Makes every call of a method fail with this status and message, until `clearFailures()`. */
  fail(method: string, code: grpc.status, message: string): void;
  clearFailures(): void;
  close(): Promise<void>;
}

type Handler = (req: Record<string, unknown>) => unknown;

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const definition = loadSync(join(protoRoot, protoFile('identity')), protoLoaderOptions);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { identity: { v1: { IdentityService: { service: grpc.ServiceDefinition } } } };
  const users = new Map<string, identityV1.User & { password: string }>();
  const sessions = new Map<string, string>();
  // Session ids whose next resolution answers renewed: true, as identity does past half the TTL.
  const renewals = new Set<string>();
  const calls: FakeIdentity['calls'] = [];
  const failures = new Map<string, { code: grpc.status; message: string }>();
  const tokens: identityV1.Token[] = [];

  const err = (code: grpc.status, message: string) => Object.assign(new Error(message), { code, details: message });
  const session = (userId: string): identityV1.Session => {
    const sid = randomBytes(32).toString('base64url');
    sessions.set(sid, userId);
    return { sid, expiresAt: new Date(Date.now() + 14 * 24 * 3600 * 1000).toISOString() };
  };
  const publicUser = (u: identityV1.User & { password: string }): identityV1.User => {
    const { password: _p, ...rest } = u;
    return rest;
  };
  const byHandle = (h: unknown) => [...users.values()].find((u) => u.twitterUsername?.toLowerCase() === String(h).replace(/^@/, '').toLowerCase());

  const handlers: Record<string, Handler> = {
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
      if (!user || user.password !== r['password']) throw err(grpc.status.UNAUTHENTICATED, 'Invalid Twitter handle or password');
      return { user: publicUser(user), session: session(user.id) };
    },
    LogOut: (r) => ({ ended: sessions.delete(String(r['sid'])) }),
    ResolveSessionWithExpiry: (r) => {
      const sid = String(r['sid']);
      const userId = sessions.get(sid);
      const user = userId ? users.get(userId) : undefined;
      if (!user) throw err(grpc.status.UNAUTHENTICATED, 'Not signed in');
      const renewed = renewals.delete(sid);
      return { user: publicUser(user), session: { sid, expiresAt: new Date(Date.now() + (renewed ? 14 : 7) * 24 * 3600 * 1000).toISOString() }, renewed };
    },
    ResolveSession: (r) => {
      const userId = sessions.get(String(r['sid']));
      const user = userId ? users.get(userId) : undefined;
      if (!user) throw err(grpc.status.UNAUTHENTICATED, 'Not signed in');
      return publicUser(user);
    },
    ResetPassword: (r) => {
      const user = byHandle(r['twitterHandle']);
      if (!user || user.email !== r['email']) throw err(grpc.status.INVALID_ARGUMENT, 'No account matches that Twitter handle and email');
      user.password = String(r['newPassword']);
      let ended = 0;
      for (const [sid, uid] of sessions) if (uid === user.id && sessions.delete(sid)) ended += 1;
      return { endedSessions: ended };
    },
    UpdateWallet: (r) => {
      const user = users.get(String(r['userId']));
      if (!user) throw err(grpc.status.NOT_FOUND, 'User not found');
      user.walletAddress = String(r['walletAddress']);
      return publicUser(user);
    },
    ListTokens: () => ({ tokens }),
    ListStreamers: () => ({
      streamers: [...users.values()].filter((u) => u.role === 'streamer').map((u) => ({ id: u.id, displayName: u.displayName, twitterUsername: u.twitterUsername })),
    }),
  };

  const server = new grpc.Server();
  const impl: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(pkg.identity.v1.IdentityService.service)) {
    impl[method] = (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const correlationId = call.metadata.get('x-correlation-id')[0]?.toString();
      calls.push({ method, request: call.request, correlationId });
      const failure = failures.get(method);
      if (failure) {
        callback(err(failure.code, failure.message));
        return;
      }
      const handler = handlers[method];
      if (!handler) {
        callback(err(grpc.status.UNIMPLEMENTED, `${method} is not faked`));
        return;
      }
      try {
        callback(null, handler(call.request));
      } catch (e) {
        callback(e as grpc.ServiceError);
      }
    };
  }
  server.addService(pkg.identity.v1.IdentityService.service, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  tokens.push({ id: randomUUID(), streamerId: randomUUID(), name: '$FAKE', pumpFunLink: 'https://pump.fun/fake', isActive: 'true' });
  return {
    url: `127.0.0.1:${port}`,
    calls,
    users,
    sessions,
    renewals,
    fail: (method, code, message) => failures.set(method, { code, message }),
    clearFailures: () => failures.clear(),
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

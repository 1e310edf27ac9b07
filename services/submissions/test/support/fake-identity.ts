import { randomUUID } from 'node:crypto';
import { identityContract, type identityV1 } from '@clipit/contracts';
import { grpcError, startFakeGrpcServer, type FakeGrpcServer } from '@clipit/testing';
import { status } from '@grpc/grpc-js';

/**
 * identity's gRPC contract answered from memory: GetUser and GetToken, the two calls submissions makes
 * (every other method answers UNIMPLEMENTED).
 */
export class FakeIdentity {
  readonly users = new Map<string, identityV1.User>();
  readonly tokens = new Map<string, identityV1.Token>();
  port = 0;
  private server: FakeGrpcServer | undefined;

  static async start(): Promise<FakeIdentity> {
    const fake = new FakeIdentity();
    const found =
      <T>(map: Map<string, T>, what: string) =>
      (request: Record<string, unknown>) => {
        const value = map.get(String(request['id']));
        if (!value) throw grpcError(status.NOT_FOUND, `${what} not found`);
        return value;
      };
    fake.server = await startFakeGrpcServer(identityContract, {
      GetUser: found(fake.users, 'User'),
      GetToken: found(fake.tokens, 'Token'),
    });
    fake.port = Number(fake.server.url.split(':').at(-1));
    return fake;
  }

  /** A user of the given role, as identity would answer GetUser for it. */
  addUser(role: 'user' | 'clipper' | 'streamer' | 'admin'): identityV1.User {
    const now = new Date().toISOString();
    const user: identityV1.User = {
      id: randomUUID(),
      role,
      currentTier: 1,
      isLive: 'false',
      streamerMultiplier: '1.00',
      isPlaceholder: 'false',
      createdAt: now,
      updatedAt: now,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** A streamer's token, as identity would answer GetToken for it. */
  addToken(streamerId: string): identityV1.Token {
    const token: identityV1.Token = { id: randomUUID(), streamerId, name: 'A token', isActive: 'true' };
    this.tokens.set(token.id, token);
    return token;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }
}

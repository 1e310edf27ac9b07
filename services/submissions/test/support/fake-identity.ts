import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { identityV1, protoFile, protoRoot } from '@clipit/contracts';
import { protoLoaderOptions } from '@clipit/service-kit';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

/**
 * identity's gRPC contract answered from memory: GetUser and GetToken, the two calls submissions makes
 * (every other method answers UNIMPLEMENTED). A service may not import another service, so its tests
 * stand in for identity at the contract, the .proto both sides load.
 */
export class FakeIdentity {
  readonly users = new Map<string, identityV1.User>();
  readonly tokens = new Map<string, identityV1.Token>();
  port = 0;

  private constructor(private readonly server: grpc.Server) {}

  static async start(): Promise<FakeIdentity> {
    const pkg = grpc.loadPackageDefinition(loadSync(join(protoRoot, protoFile('identity')), protoLoaderOptions));
    const service = (pkg['identity'] as grpc.GrpcObject)['v1'] as grpc.GrpcObject;
    const definition = (service[identityV1.IDENTITY_SERVICE_NAME] as grpc.ServiceClientConstructor).service;
    const server = new grpc.Server();
    const fake = new FakeIdentity(server);
    const notFound = (what: string): Partial<grpc.StatusObject> => ({ code: grpc.status.NOT_FOUND, details: `${what} not found` });
    const getUser: Unary<identityV1.GetUserRequest, identityV1.User> = (call, callback) => {
      const user = fake.users.get(call.request.id);
      if (user) callback(null, user);
      else callback(notFound('User'));
    };
    const getToken: Unary<identityV1.GetTokenRequest, identityV1.Token> = (call, callback) => {
      const token = fake.tokens.get(call.request.id);
      if (token) callback(null, token);
      else callback(notFound('Token'));
    };
    server.addService(definition, { getUser, getToken });
    fake.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
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
    await new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
  }
}

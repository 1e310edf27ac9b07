import { protoFile, type GrpcContract } from '@clipit/contracts';
import { protoDefinition } from '@clipit/service-kit';
import * as grpc from '@grpc/grpc-js';

/** One answer of a faked method: its value, or a thrown `grpcError(…)` (or any error, answered as INTERNAL). */
export type FakeHandler = (request: Record<string, unknown>) => unknown;

export interface FakeGrpcServer {
  /** host:port to point the service under test at. */
  url: string;
  /** Every call received, in order, with the correlation id its metadata carried. */
  calls: Array<{ method: string; request: Record<string, unknown>; correlationId: string | undefined }>;
  /** Makes every call of `method` fail with this status and message until `clearFailures()`. */
  fail(method: string, code: grpc.status, message: string): void;
  clearFailures(): void;
  stop(): Promise<void>;
}

/** An error a fake answers with: the status code and the message the caller sees. */
export function grpcError(code: grpc.status, message: string): grpc.ServiceError {
  return Object.assign(new Error(message), { code, details: message, metadata: new grpc.Metadata() });
}

/**
 * Another service's gRPC contract answered from memory on a free loopback port, for the tests of a
 * service that calls it (a service may not import another: its tests stand in at the contract, the
 * .proto both sides load). Methods are named as in the .proto (`GetUser`); those without a handler
 * answer UNIMPLEMENTED.
 */
export async function startFakeGrpcServer(
  contract: GrpcContract,
  handlers: Readonly<Record<string, FakeHandler>>,
): Promise<FakeGrpcServer> {
  const pkg = grpc.loadPackageDefinition(protoDefinition(protoFile(contract.proto)));
  const ctor = [...contract.packageName.split('.'), contract.serviceName].reduce<unknown>(
    (node, key) => (node as Record<string, unknown>)[key],
    pkg,
  ) as grpc.ServiceClientConstructor | undefined;
  if (!ctor?.service) throw new Error(`${contract.packageName}.${contract.serviceName} is not in ${protoFile(contract.proto)}`);
  for (const method of Object.keys(handlers)) {
    if (!(method in ctor.service)) throw new Error(`${contract.serviceName} has no method ${method}`);
  }

  const calls: FakeGrpcServer['calls'] = [];
  const failures = new Map<string, grpc.ServiceError>();
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(ctor.service)) {
    implementation[method] = (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      calls.push({ method, request: call.request, correlationId: call.metadata.get('x-correlation-id')[0]?.toString() });
      const failure = failures.get(method);
      const handler = handlers[method];
      if (failure) return callback(failure);
      if (!handler) return callback(grpcError(grpc.status.UNIMPLEMENTED, `${method} is not faked`));
      Promise.resolve()
        .then(() => handler(call.request))
        .then(
          (answer) => callback(null, answer),
          (err: unknown) =>
            callback(
              typeof (err as grpc.ServiceError).code === 'number'
                ? (err as grpc.ServiceError)
                : grpcError(grpc.status.INTERNAL, String(err)),
            ),
        );
    };
  }
  const server = new grpc.Server();
  server.addService(ctor.service, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    url: `127.0.0.1:${port}`,
    calls,
    fail: (method, code, message) => failures.set(method, grpcError(code, message)),
    clearFailures: () => failures.clear(),
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

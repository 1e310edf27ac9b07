import { fileURLToPath } from 'node:url';

/** Root folder of the .proto contracts (repository `proto/`), which gRPC loaders read at run time. */
export const protoRoot: string = fileURLToPath(new URL('../../../proto/', import.meta.url));

/** Path of one service's contract, relative to `protoRoot`, e.g. `identity/v1/identity.proto`. */
export function protoFile(service: string, version = 1): string {
  return `${service}/v${version}/${service}.proto`;
}

/**
 * One service's gRPC contract as servers and clients load it: its proto file, package and service name.
 * `TClient` carries the generated client interface, so a client made from it is typed.
 */
export interface GrpcContract<TClient extends object = object> {
  readonly proto: string;
  readonly packageName: string;
  readonly serviceName: string;
  /** Type only: never set. */
  readonly client?: TClient;
}

export function grpcContract<TClient extends object>(proto: string, packageName: string, serviceName: string): GrpcContract<TClient> {
  return { proto, packageName, serviceName };
}

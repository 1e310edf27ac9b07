import { fileURLToPath } from 'node:url';

/** Root folder of the .proto contracts (repository `proto/`), which gRPC loaders read at run time. */
export const protoRoot: string = fileURLToPath(new URL('../../../proto/', import.meta.url));

/** Path of one service's contract, relative to `protoRoot`, e.g. `identity/v1/identity.proto`. */
export function protoFile(service: string, version = 1): string {
  return `${service}/v${version}/${service}.proto`;
}
